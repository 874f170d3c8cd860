import type { Redis } from 'ioredis';
import type { Logger } from '../../shared/logger';
import { countInWindow, overLimitError, type WindowCount } from '../http/fixed-window';

/** The community-review writes that are limited per caller, each with its own hourly budget. */
export type ReviewWrite = 'sessions' | 'responses';

const WINDOW_SECONDS = 3600;

/**
 * Per-caller hourly limits on community-review writes, counted in Redis so every web process shares
 * them: a fixed window that starts at the caller's first write.
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
      let counted: WindowCount;
      try {
        counted = await countInWindow(deps.redis, key, WINDOW_SECONDS);
      } catch (err) {
        // Redis down: the write goes ahead (logged). The limit is against floods of anonymous rows,
        // and each row still passes validation; refusing every reviewer during an outage is worse.
        log.warn({ err, kind }, 'community review rate limit unavailable');
        return;
      }
      const limit = deps.limits[kind];
      if (counted.count > limit) {
        throw overLimitError('review_rate_limited', `At most ${limit} community-review ${kind} per hour from one client; retry later.`, counted, { kind, limit, window_seconds: WINDOW_SECONDS });
      }
    },
  };
}
