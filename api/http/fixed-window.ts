import type { Redis } from 'ioredis';
import { AppError } from '../../shared/errors';

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

/**
 * The refusal of an event over its window's limit: 429 with Retry-After, and the same wait in
 * `details.retry_after_seconds` beside what the caller names about the limit.
 * @param code - the error code
 * @param message - what was refused and the limit, for a person
 * @param counted - the window's count (its end is the wait)
 * @param details - the limit's terms (limit, window_seconds, scope...)
 * @returns the error to throw
 */
export function overLimitError(code: string, message: string, counted: WindowCount, details: Record<string, unknown>): AppError {
  const retryAfter = counted.retryAfterSeconds;
  return new AppError(429, code, message, { headers: { 'Retry-After': String(retryAfter) }, details: { ...details, retry_after_seconds: retryAfter } });
}
