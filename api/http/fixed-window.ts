import type { Redis } from 'ioredis';

/** One event counted in a fixed window. */
export interface WindowCount {
  /** Events in the window so far, this one included. */
  count: number;
  /** Seconds until the window ends (at least 1): the Retry-After of a refusal. */
  retryAfterSeconds: number;
}

/**
 * Counts one event under a key in a fixed window that starts at the key's first event (INCR, then
 * EXPIRE NX, then TTL, in one transaction), in Redis so every web process shares the count. The
 * caller decides what a count over its limit means and what to do when Redis cannot answer (this
 * throws the connection's error).
 * @param redis - the producer connection
 * @param key - the counter's key, already prefixed with the deployment's prefix
 * @param windowSeconds - the window's length
 * @returns the count and when the window ends
 */
export async function countInWindow(redis: Redis, key: string, windowSeconds: number): Promise<WindowCount> {
  const results = await redis.multi().incr(key).expire(key, windowSeconds, 'NX').ttl(key).exec();
  const failed = results?.find(([err]) => err !== null);
  if (!results || failed) throw failed?.[0] ?? new Error('the rate counter transaction was discarded');
  const ttl = Number(results[2]![1]);
  return { count: Number(results[0]![1]), retryAfterSeconds: Math.max(1, ttl > 0 ? ttl : windowSeconds) };
}
