import { Queue, QueueEvents, type DefaultJobOptions, type QueueOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { AppConfig } from '../shared/config';
import { closeRedis } from '../shared/redis';
import { setJobOwner } from './job-owner';

/** Every queue of the system; `QUEUE_JOBS` (declared-jobs.ts) lists what the web puts on each. */
export const QUEUE = {
  scoring: 'scoring',
  stress: 'stress',
  exports: 'exports',
  settlement: 'settlement',
  maintenance: 'maintenance',
} as const;

/** A queue name. */
export type QueueName = (typeof QUEUE)[keyof typeof QUEUE];

/**
 * Default job options: bounded retries with exponential backoff, and finished jobs kept for a
 * short window (not removed at once: a waiter that subscribes late checks the finished job once).
 * @param jobs - the `jobs` section of the config
 * @returns options for `defaultJobOptions`
 */
export function defaultJobOptions(jobs: AppConfig['jobs']): DefaultJobOptions {
  return {
    attempts: jobs.attempts,
    backoff: { type: 'exponential', delay: jobs.backoffMs },
    removeOnComplete: { age: jobs.keepSeconds },
    removeOnFail: { age: jobs.keepSeconds },
  };
}

/**
 * The single queue factory for producers.
 * @param name - one of {@link QUEUE}
 * @param connection - a producer (fail-fast) Redis connection, shared by the process's queues
 * @param cfg - `redis` (key prefix) and `jobs` (defaults) sections of the config
 * @param owner - the producer's database identity (`readDatabaseId`): every job added through
 *   `enqueueWithDeadline` is stamped with it, so a worker of another database puts it back
 * @returns the queue; the caller attaches nothing else and closes it on shutdown
 */
export function createQueue(name: QueueName, connection: Redis, cfg: Pick<AppConfig, 'redis' | 'jobs'>, owner?: { databaseId: string }): Queue {
  const options: QueueOptions = {
    connection,
    prefix: cfg.redis.queuePrefix,
    defaultJobOptions: defaultJobOptions(cfg.jobs),
  };
  const queue = new Queue(name, options);
  // Each concurrent add waits on the queue's "closing" event, so many requests at once are
  // normal load, not a leak; Node's default cap of ten would warn on every burst.
  queue.setMaxListeners(0);
  if (owner) setJobOwner(queue, owner.databaseId);
  return queue;
}

/**
 * Creates the process's QueueEvents for a queue on a connection the caller owns (a worker-role
 * connection: QueueEvents blocks on XREAD). Owning it lets {@link closeQueueEvents} end it even
 * while Redis is unreachable, where BullMQ's own close would wait for a connection forever.
 * @param name - one of {@link QUEUE}
 * @param connection - a dedicated worker-role (maxRetriesPerRequest: null) connection
 * @param cfg - `redis` section of the config (key prefix)
 * @returns the QueueEvents; await `waitUntilReady()` before serving
 */
export function createQueueEvents(name: QueueName, connection: Redis, cfg: Pick<AppConfig, 'redis'>): QueueEvents {
  const events = new QueueEvents(name, { connection, prefix: cfg.redis.queuePrefix });
  // Every request waiting on a job adds listeners here (waitUntilFinished); see createQueue.
  events.setMaxListeners(0);
  return events;
}

/**
 * Closes a QueueEvents and its connection, also when Redis is down.
 * @param events - from {@link createQueueEvents}
 * @param connection - its connection (from `createRedis`)
 */
export async function closeQueueEvents(events: QueueEvents, connection: Redis): Promise<void> {
  if (connection.status === 'ready') {
    // BullMQ's close interrupts the blocking XREAD itself.
    await events.close();
    await closeRedis(connection);
    return;
  }
  // Not connected: BullMQ's close would wait for the connection to become ready, forever. End the
  // connection for good first; BullMQ's wait then fails and its close settles.
  await closeRedis(connection);
  await events.close().catch(() => undefined);
}
