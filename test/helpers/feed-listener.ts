import { Redis } from 'ioredis';
import { feedChannel, type FeedEvent } from '../../shared/payments/feed';
import { TEST_REDIS_URL } from './redis';

/** The live-feed events published under one queue prefix, as a subscriber received them. */
export interface FeedListener {
  events: FeedEvent[];
  /**
   * Resolves once `count` events arrived.
   * @param count - how many
   * @param timeoutMs - rejects after this long
   */
  waitFor(count: number, timeoutMs?: number): Promise<FeedEvent[]>;
  close(): Promise<void>;
}

/**
 * Subscribes to the live feed of a deployment prefix (the Redis pub/sub channel the worker
 * publishes settlements to).
 * @param prefix - the stack's queue prefix
 * @returns the listener; close it in `after`
 */
export async function listenToFeed(prefix: string): Promise<FeedListener> {
  const redis = new Redis(TEST_REDIS_URL);
  const events: FeedEvent[] = [];
  redis.on('message', (_channel: string, message: string) => events.push(JSON.parse(message) as FeedEvent));
  await redis.subscribe(feedChannel(prefix));
  return {
    events,
    async waitFor(count, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      while (events.length < count) {
        if (Date.now() > until) throw new Error(`${events.length} feed events after ${timeoutMs} ms, expected ${count}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return events;
    },
    async close() {
      await redis.quit();
    },
  };
}
