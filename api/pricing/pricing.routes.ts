import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { buildPricingManifest, type ServedOperations } from './pricing-manifest';

/**
 * The pricing manifest route.
 * @param deps - app dependencies
 * @param served - every operation the server answers, as `METHOD /path` (the manifest marks the rest unavailable)
 * @returns the router
 */
export function pricingRoutes(deps: AppDeps, served: ServedOperations): Router<AppState> {
  const router = new Router<AppState>();
  // Rebuilt only when an admin changed the base simulation fee (the runtime network configuration).
  let built: { lamports: number; manifest: object } | undefined;
  router.get('/api/pricing', async (ctx: AppContext) => {
    const network = deps.network.current();
    if (built?.lamports !== network.simulateBaseLamports) built = { lamports: network.simulateBaseLamports, manifest: Object.freeze(buildPricingManifest(deps.config.payments, deps.config.freeTier, served, network)) };
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.body = built.manifest;
  });
  return router;
}
