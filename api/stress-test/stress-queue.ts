import type { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { bindQueueEvents, closeQueueEvents, createQueue, createQueueEvents, QUEUE } from '../../jobs';
import type { AppConfig } from '../../shared/config';
import { connectionErrorListener, type Logger } from '../../shared/logger';
import { createRedis } from '../../shared/redis';

/** The web's handle on the `stress` queue: the producer queue and the process's one QueueEvents. */
export interface StressQueue {
  queue: Queue;
  /** Ready before the server listens, so no result event is missed. */
  events: QueueEvents;
  /** Closes the QueueEvents and its connection, then the queue (the producer connection is the caller's). */
  close(): Promise<void>;
}

/**
 * Builds the stress family's queue service: a producer queue on the web's shared fail-fast
 * connection, and a QueueEvents on a dedicated worker-role connection (it blocks on XREAD).
 * @param config - the loaded config
 * @param redis - the web's producer connection (shared with the other queues)
 * @param logger - root logger
 * @param owner - the web's database identity (stamped on every job)
 * @returns the service, its QueueEvents ready
 */
export async function createStressQueue(config: AppConfig, redis: Redis, logger: Logger, owner: { databaseId: string }): Promise<StressQueue> {
  const queue = createQueue(QUEUE.stress, redis, config, owner);
  queue.on('error', connectionErrorListener(logger, { queue: QUEUE.stress }, 'queue error'));
  const eventsRedis = createRedis(config.redis.url, 'worker', logger, 'web-stress-events');
  const events = createQueueEvents(QUEUE.stress, eventsRedis, config);
  events.on('error', connectionErrorListener(logger, { queue: QUEUE.stress }, 'queue events error'));
  bindQueueEvents(queue, events);
  try {
    await events.waitUntilReady();
  } catch (err) {
    await closeQueueEvents(events, eventsRedis).catch(() => undefined);
    await queue.close().catch(() => undefined);
    throw err;
  }
  return {
    queue,
    events,
    async close() {
      try {
        await closeQueueEvents(events, eventsRedis);
      } finally {
        await queue.close();
      }
    },
  };
}
