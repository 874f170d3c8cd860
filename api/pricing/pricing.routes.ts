import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import type { ServedOperations } from './pricing-manifest';
import { pricingManifestReader } from './pricing.tool';

/**
 * The pricing manifest route.
 * @param deps - app dependencies
 * @param served - every operation the server answers, as `METHOD /path` (the manifest marks the rest unavailable)
 * @param manifest - the manifest reader (shared with the pricing tool)
 * @returns the router
 */
export function pricingRoutes(deps: AppDeps, served: ServedOperations, manifest = pricingManifestReader(deps, served)): Router<AppState> {
  const router = createRouter();
  router.get('/api/pricing', async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.body = manifest();
  });
  return router;
}
