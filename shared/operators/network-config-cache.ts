import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { Logger } from '../logger';
import { DEFAULT_NETWORK_CONFIG, readNetworkConfig, type NetworkConfig } from './network-config';

/** Which kind of process holds a view: a web process or a worker process. */
export type ProcessRole = 'web' | 'worker';

/** One process's view of the runtime network configuration, kept current by Redis pub/sub. */
export interface NetworkConfigCache {
  /** The configuration now (synchronous: quotes read it on every request). */
  current(): NetworkConfig;
  /** Re-reads the database now (the process that made a change calls it before answering). */
  refresh(): Promise<NetworkConfig>;
  /** Tells every process (this one included) to re-read the database. */
  announce(): Promise<void>;
  /** This process's id among the reported views ({@link listNetworkConfigViews}). */
  readonly instance: string;
  close(): Promise<void>;
}

/** What a process reported it holds, and when (`GET /api/admin/network-config/processes`). */
export interface NetworkConfigView {
  instance: string;
  role: ProcessRole;
  simulateBaseLamports: number;
  failureSuspensionCap: number;
  /** The `updated_at` of the configuration it holds (null: the defaults). */
  updatedAt: string | null;
  /** When it last read the database and reported. */
  reportedAt: string;
}

/** The default re-read interval; a view not reported for three of them is taken as a stopped process. */
export const NETWORK_CONFIG_RESYNC_MS = 30_000;

/**
 * The Redis channel of configuration changes, under the deployment's queue prefix.
 * @param queuePrefix - QUEUE_PREFIX
 * @returns the channel name
 */
export function networkConfigChannel(queuePrefix: string): string {
  return `${queuePrefix}:network-config:changed`;
}

/**
 * The Redis hash where every process reports the configuration it holds (field: its instance id).
 * @param queuePrefix - QUEUE_PREFIX
 * @returns the key
 */
export function networkConfigViewsKey(queuePrefix: string): string {
  return `${queuePrefix}:network-config:views`;
}

/**
 * The views processes reported, newest report first. Views not reported within `staleAfterMs`
 * belong to processes that stopped without saying so (killed): they are dropped from the hash.
 * @param redis - any normal connection
 * @param queuePrefix - QUEUE_PREFIX
 * @param staleAfterMs - how old a report may be
 * @returns the live views
 */
export async function listNetworkConfigViews(redis: Redis, queuePrefix: string, staleAfterMs = 3 * NETWORK_CONFIG_RESYNC_MS): Promise<NetworkConfigView[]> {
  const key = networkConfigViewsKey(queuePrefix);
  const all = await redis.hgetall(key);
  const live: NetworkConfigView[] = [];
  const stale: string[] = [];
  for (const [field, json] of Object.entries(all)) {
    let view: NetworkConfigView | undefined;
    try {
      view = JSON.parse(json) as NetworkConfigView;
    } catch {
      view = undefined;
    }
    if (view && Date.now() - Date.parse(view.reportedAt) <= staleAfterMs) live.push(view);
    else stale.push(field);
  }
  if (stale.length > 0) await redis.hdel(key, ...stale);
  return live.sort((a, b) => b.reportedAt.localeCompare(a.reportedAt) || a.instance.localeCompare(b.instance));
}

/**
 * Starts a process's cache: reads the database once, then re-reads it on every announcement on
 * the channel. The message carries no values: the database is the one source, so announcements
 * that arrive out of order still end on the latest row. A periodic re-read covers announcements
 * lost while Redis was away. After each read the process reports what it now holds
 * ({@link networkConfigViewsKey}), so an admin can see every web and worker apply a change.
 * @param options - DataSource, a dedicated subscriber connection (it enters subscriber mode), a
 *   connection to publish and report on, the queue prefix, the process role, a logger and the
 *   re-read interval
 * @returns the cache, subscribed and loaded
 */
export async function startNetworkConfigCache(options: {
  dataSource: DataSource;
  subscriber: Redis;
  publisher: Redis;
  queuePrefix: string;
  role: ProcessRole;
  log: Logger;
  resyncMs?: number;
}): Promise<NetworkConfigCache> {
  const { dataSource, subscriber, publisher, log, role } = options;
  const channel = networkConfigChannel(options.queuePrefix);
  const viewsKey = networkConfigViewsKey(options.queuePrefix);
  // Host and pid name the process for an admin; the random part keeps two caches of one process
  // (tests run several stacks in one process) apart.
  const instance = `${role}:${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  let value: NetworkConfig = DEFAULT_NETWORK_CONFIG;
  let closed = false;
  const report = async (c: NetworkConfig) => {
    const view: NetworkConfigView = {
      instance,
      role,
      simulateBaseLamports: c.simulateBaseLamports,
      failureSuspensionCap: c.failureSuspensionCap,
      updatedAt: c.updatedAt ? c.updatedAt.toISOString() : null,
      reportedAt: new Date().toISOString(),
    };
    try {
      await publisher.hset(viewsKey, instance, JSON.stringify(view));
    } catch (err) {
      // The view is for operators to look at; applying the configuration does not depend on it.
      log.warn({ err }, 'network config view not reported');
    }
  };
  const refresh = async () => {
    value = await readNetworkConfig(dataSource);
    if (!closed) await report(value);
    return value;
  };
  const refreshQuietly = () => {
    if (closed) return;
    refresh().catch((err: unknown) => log.warn({ err }, 'network config refresh failed'));
  };
  subscriber.on('message', (ch: string) => {
    if (ch === channel) refreshQuietly();
  });
  await subscriber.subscribe(channel);
  await refresh();
  const timer = setInterval(refreshQuietly, options.resyncMs ?? NETWORK_CONFIG_RESYNC_MS);
  timer.unref();
  return {
    current: () => value,
    refresh,
    instance,
    async announce() {
      await publisher.publish(channel, '1');
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await publisher.hdel(viewsKey, instance).catch((err: unknown) => log.warn({ err }, 'network config view not removed'));
    },
  };
}
