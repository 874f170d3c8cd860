import type { Redis } from 'ioredis';
import type { Logger } from '../../shared/logger';
import { countInWindow, overLimitError, type WindowCount } from '../http/fixed-window';

/** Handoffs one client may record per hour: far above what a developer selecting offerings makes. */
export const HANDOFFS_PER_HOUR = 120;

const WINDOW_SECONDS = 3600;

/**
 * A per-client hourly limit on recorded handoffs, counted in Redis so every web process shares it
 * (a fixed window from the client's first handoff). Handoffs are anonymous
 * rows behind public totals; the limit keeps one client from inflating them.
 * @param deps - the producer Redis connection and the deployment's key prefix
 * @returns `take(caller, log)`, which counts one handoff
 */
export function createHandoffRateLimit(deps: { redis: Redis; prefix: string }) {
  return {
    /**
     * Counts one handoff of a client.
     * @param caller - a keyed hash of the client address
     * @param log - request logger
     * @throws AppError handoff_rate_limited (429, Retry-After) beyond the hourly limit
     */
    async take(caller: string, log: Logger): Promise<void> {
      const key = `${deps.prefix}:catalog-handoffs:${caller}`;
      let counted: WindowCount;
      try {
        counted = await countInWindow(deps.redis, key, WINDOW_SECONDS);
      } catch (err) {
        // Redis down: the handoff is recorded (logged); a developer's selection matters more than
        // the flood limit during an outage.
        log.warn({ err }, 'catalog handoff rate limit unavailable');
        return;
      }
      if (counted.count > HANDOFFS_PER_HOUR) {
        throw overLimitError('handoff_rate_limited', `At most ${HANDOFFS_PER_HOUR} handoffs per hour from one client; retry later.`, counted, { limit: HANDOFFS_PER_HOUR, window_seconds: WINDOW_SECONDS });
      }
    },
  };
}
