import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { QUEUE } from '../../jobs';

/** Redis the tests use. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Every BullMQ prefix of this run starts with this, so the run never touches other keys. */
export const RUN_PREFIX = `hl-test-${process.pid}`;

const prefixes = new Set<string>();

/**
 * A BullMQ key prefix for one suite, cleaned up at the end of the run.
 * @param suite - short suite name
 * @returns the prefix
 */
export function queuePrefix(suite: string): string {
  const prefix = `${RUN_PREFIX}-${suite}`;
  prefixes.add(prefix);
  return prefix;
}

/**
 * Obliterates every queue under a prefix.
 * @param prefix - BullMQ prefix
 */
export async function obliterateQueues(prefix: string): Promise<void> {
  for (const name of Object.values(QUEUE)) {
    const queue = new Queue(name, { connection: { url: TEST_REDIS_URL }, prefix });
    try {
      await queue.obliterate({ force: true });
    } finally {
      await queue.close();
    }
  }
}

// Root-level hook: obliterate this run's queues, then delete any key left under the run prefix.
after(async function cleanTestQueues() {
  for (const prefix of prefixes) await obliterateQueues(prefix);
  const redis = new Redis(TEST_REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${RUN_PREFIX}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
});
