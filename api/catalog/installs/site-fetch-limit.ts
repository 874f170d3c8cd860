import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { AppError } from '../../../shared/errors';
import { countInWindow, overLimitError, type WindowCount } from '../../http/fixed-window';

/**
 * How often the workflows may have the service read one site. Anyone who knows a workflow id can
 * drive its steps, and starting a workflow is free, so without a bound the service could be used
 * to hammer someone's site. A person fixing their page retries a few times; these are far above
 * that and far below a flood.
 */
export const SITE_FETCH_LIMITS = {
  /** Fetches one workflow asks for. */
  workflow: { limit: 10, windowSeconds: 600 },
  /** Fetches of one site origin, across every workflow naming it. */
  site: { limit: 60, windowSeconds: 3600 },
} as const;

type Scope = keyof typeof SITE_FETCH_LIMITS;

// The origin of an install not yet verified appears nowhere public, so its counter is keyed by a hash.
function originKey(origin: string): string {
  return createHash('sha256').update(origin).digest('hex').slice(0, 32);
}

/**
 * Counts each fetch a workflow step is about to make of a caller's site, in Redis so every web
 * process shares the counts (a fixed window from the first fetch).
 * @param deps - the producer Redis connection and the deployment's key prefix
 * @returns `take(install)`, called before each fetch
 */
export function createSiteFetchLimit(deps: { redis: Redis; prefix: string }) {
  return {
    /**
     * Counts one fetch of a workflow's site.
     * @param install - the workflow's id and site origin
     * @throws AppError site_fetch_rate_limited (429, Retry-After) beyond either limit; site_fetch_limit_unavailable
     *   (503) when Redis cannot count (no fetch is made that cannot be counted)
     */
    async take(install: { id: string; siteOrigin: string }): Promise<void> {
      const keys: Record<Scope, string> = {
        workflow: `${deps.prefix}:catalog-site-fetches:workflow:${install.id}`,
        site: `${deps.prefix}:catalog-site-fetches:site:${originKey(install.siteOrigin)}`,
      };
      for (const scope of Object.keys(SITE_FETCH_LIMITS) as Scope[]) {
        const { limit, windowSeconds } = SITE_FETCH_LIMITS[scope];
        let counted: WindowCount;
        try {
          counted = await countInWindow(deps.redis, keys[scope], windowSeconds);
        } catch {
          throw new AppError(503, 'site_fetch_limit_unavailable', 'The site was not fetched: its fetch limit cannot be counted right now; retry shortly.', {
            headers: { 'Retry-After': '5' },
          });
        }
        if (counted.count > limit) {
          throw overLimitError('site_fetch_rate_limited', `The site was not fetched: at most ${limit} fetches per ${windowSeconds / 60} minutes for one ${scope}; retry later.`, counted, { scope, limit, window_seconds: windowSeconds });
        }
      }
    },
  };
}
