// What the HTTP benches share: the service children's environment, a throwaway migrated database,
// a free loopback port, a process's CPU, and the removal of a run's Redis keys.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { createDataSource } from '../../shared/db/create-data-source';

/** Where a bench's service children connect. */
export interface ServiceTarget {
  logLevel: string;
  redisUrl: string;
  queuePrefix: string;
  databaseUrl: string;
}

/**
 * The environment of a bench's service web and worker: loopback, callers from X-Forwarded-For
 * (one trusted hop), a fresh caller-hash key, and the free cap lifted with the existing knobs for
 * these children only (nothing in shared/config.ts is bench-specific).
 * @param target - where they connect
 * @returns the variables
 */
export function serviceEnv(target: ServiceTarget): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: target.logLevel,
    HOST: '127.0.0.1',
    REDIS_URL: target.redisUrl,
    QUEUE_PREFIX: target.queuePrefix,
    DATABASE_URL: target.databaseUrl,
    TRUSTED_PROXY_HOPS: '1',
    // Behind a trusted hop web refuses to start without it; the bench signs whatever resource its 402 names.
    PUBLIC_BASE_URL: 'http://127.0.0.1',
    CALLER_HASH_KEY: `bench-${randomBytes(16).toString('hex')}`,
    FREE_SCORE_LIMIT: '1000000000',
    FREE_WISHLIST_REQUIRED_FROM: '1000000001',
  };
}

/** Clock ticks per second of /proc/<pid>/stat's CPU fields (USER_HZ, 100 on Linux). */
export const CLOCK_TICK = 100;

/**
 * Runs one statement on the server's admin database (CREATE and DROP DATABASE).
 * @param adminUrl - a URL of the server's admin database
 * @param sql - the statement
 */
export async function adminStatement(adminUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * The URL of another database on the same server.
 * @param adminUrl - a URL of the server's admin database
 * @param name - the database
 * @returns its URL
 */
export function databaseUrlOn(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Creates a database (dropping one a crashed run left) with every migration applied.
 * @param adminUrl - a URL of the server's admin database
 * @param name - the database
 * @returns its URL
 */
export async function createMigratedDatabase(adminUrl: string, name: string): Promise<string> {
  await adminStatement(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await adminStatement(adminUrl, `CREATE DATABASE "${name}"`);
  const url = databaseUrlOn(adminUrl, name);
  const ds = createDataSource({ url, poolMax: 1, ssl: false }, 'bench-migrate');
  await ds.initialize();
  try {
    await ds.runMigrations();
  } finally {
    await ds.destroy();
  }
  return url;
}

/** @returns a loopback port nothing listens on now */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || !address) throw new Error('no free port');
  return address.port;
}

/**
 * A process's command name and CPU seconds so far (utime + stime: every thread, the Piscina
 * threads of a worker included).
 * @param pid - the process
 * @returns them, or undefined once the process is gone
 */
export function procStat(pid: number): { comm: string; cpu: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), cpu: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICK };
  } catch {
    return undefined;
  }
}

/**
 * Removes a run's queues and every other key under its BullMQ prefix (job schedulers, events).
 * @param redisUrl - the Redis the run used
 * @param prefix - the run's BullMQ prefix
 * @param queues - the queues to obliterate first
 */
export async function removeQueueKeys(redisUrl: string, prefix: string, queues: readonly string[]): Promise<void> {
  for (const name of queues) {
    const queue = new Queue(name, { connection: { url: redisUrl }, prefix });
    try {
      await queue.obliterate({ force: true });
    } finally {
      await queue.close();
    }
  }
  const redis = new Redis(redisUrl);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}

/**
 * Runs a bench's cleanup on SIGINT or SIGTERM (once), then exits with 130, so an interrupted run
 * leaves no children, database or Redis keys behind.
 * @param cleanup - the run's cleanup
 * @returns removes the handlers and tells whether a signal already started the cleanup: call it
 *   before the run's own cleanup, which runs only when it answers false
 */
export function cleanUpOnInterrupt(cleanup: () => Promise<void>): () => boolean {
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) return;
    interrupted = true;
    process.stdout.write('interrupted; cleaning up\n');
    cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return () => {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    return interrupted;
  };
}
