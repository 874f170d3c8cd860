import { Redis } from 'ioredis';
import type { Logger } from './logger';

/**
 * Who uses a connection. Producers (the API) fail fast so a request gets a 503 instead of
 * hanging while Redis is down; workers and blocking readers (QueueEvents) wait forever, as
 * BullMQ's going-to-production guide requires (`maxRetriesPerRequest: null`).
 */
export type RedisRole = 'producer' | 'worker';

/** The connection settings that differ by role; accepted by ioredis and by BullMQ's `connection`. */
export interface RoleOptions {
  enableOfflineQueue: boolean;
  maxRetriesPerRequest: number | null;
  connectTimeout?: number;
  retryStrategy: (times: number) => number | null;
}

/**
 * Connection settings for a role.
 * @param role - producer (fail fast) or worker (wait forever)
 * @returns options to merge with the URL
 */
export function redisOptionsFor(role: RedisRole): RoleOptions {
  if (role === 'producer') {
    return {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      // Keep reconnecting in the background, capped at 2 s between attempts.
      retryStrategy: (times) => Math.min(100 * times, 2_000),
    };
  }
  return {
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(200 * times, 5_000),
  };
}

// Clients closed by closeRedis; their retry strategy then refuses to reconnect.
const closed = new WeakSet<Redis>();

/**
 * Opens a Redis connection for a role and logs its errors (an ioredis client without an
 * `error` listener prints to stderr on every failed reconnect).
 * @param url - redis:// or rediss:// URL
 * @param role - producer or worker
 * @param log - where connection errors go (at most one line per outage)
 * @param name - connection name shown by CLIENT LIST
 * @returns the client (connecting in the background)
 */
export function createRedis(url: string, role: RedisRole, log: Logger, name: string): Redis {
  const options = redisOptionsFor(role);
  const client: Redis = new Redis(url, {
    ...options,
    connectionName: name,
    // Once closed, never reconnect: a library holding the client (BullMQ) may otherwise revive it.
    retryStrategy: (times) => (closed.has(client) ? null : options.retryStrategy(times)),
  });
  let down = false;
  client.on('error', (err: Error) => {
    if (!down) log.warn({ err, connection: name }, 'redis connection error');
    down = true;
  });
  client.on('ready', () => {
    if (down) log.info({ connection: name }, 'redis connection restored');
    down = false;
  });
  return client;
}

/**
 * Pings Redis with a deadline.
 * @param client - any connection
 * @param timeoutMs - how long to wait for PONG
 * @returns true when Redis answered in time
 */
export async function pingRedis(client: Redis, timeoutMs: number): Promise<boolean> {
  if (client.status !== 'ready') return false;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([client.ping().then((r) => r === 'PONG', () => false), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Closes a connection: QUIT when connected, otherwise a hard disconnect (QUIT would wait for a
 * Redis that is not there). A client from {@link createRedis} never reconnects afterwards.
 * @param client - the connection to close
 */
export async function closeRedis(client: Redis): Promise<void> {
  closed.add(client);
  if (client.status === 'end') return;
  if (client.status === 'ready') {
    try {
      await client.quit();
      return;
    } catch {
      // fall through to disconnect
    }
  }
  client.disconnect();
}
