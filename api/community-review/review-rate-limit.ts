import type { Redis } from 'ioredis';
import { AppError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';

/** The community-review writes that are limited per caller, each with its own hourly budget. */
export type ReviewWrite = 'sessions' | 'responses';

const WINDOW_SECONDS = 3600;

/**
 * Per-caller hourly limits on community-review writes, counted in Redis so every web process shares
 * them: a fixed window that starts at the caller's first write (INCR, then EXPIRE NX).
 * @param deps - the producer Redis connection, the deployment's key prefix, and the hourly limits
 * @returns `take(kind, caller, log)`, which counts one write
 */
export function createReviewRateLimit(deps: { redis: Redis; prefix: string; limits: Record<ReviewWrite, number> }) {
  return {
    /**
     * Counts one write of a caller.
     * @param kind - which write
     * @param caller - the caller key (a keyed hash of the client address)
     * @param log - request logger
     * @throws AppError review_rate_limited (429, Retry-After) beyond the hourly limit
     */
    async take(kind: ReviewWrite, caller: string, log: Logger): Promise<void> {
      const key = `${deps.prefix}:community-review:${kind}:${caller}`;
      let count: number;
      let ttl: number;
      try {
        const results = await deps.redis.multi().incr(key).expire(key, WINDOW_SECONDS, 'NX').ttl(key).exec();
        count = Number(results?.[0]?.[1] ?? 0);
        ttl = Number(results?.[2]?.[1] ?? WINDOW_SECONDS);
      } catch (err) {
        // Redis down: the write goes ahead (logged). The limit is against floods of anonymous rows,
        // and each row still passes validation; refusing every reviewer during an outage is worse.
        log.warn({ err, kind }, 'community review rate limit unavailable');
        return;
      }
      const limit = deps.limits[kind];
      if (count > limit) {
        const retryAfter = Math.max(1, ttl);
        throw new AppError(429, 'review_rate_limited', `At most ${limit} community-review ${kind} per hour from one client; retry later.`, {
          headers: { 'Retry-After': String(retryAfter) },
          details: { kind, limit, window_seconds: WINDOW_SECONDS, retry_after_seconds: retryAfter },
        });
      }
    },
  };
}
