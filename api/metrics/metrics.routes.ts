import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';

/**
 * `GET /metrics`: this process's Prometheus metrics in the text exposition format. The operator
 * credential is checked before routing by `operatorGuard`.
 * @param deps - app dependencies
 * @returns the router
 */
export function metricsRoutes(deps: AppDeps): Router<AppState> {
  const router = createRouter();
  router.get('/metrics', async (ctx: AppContext) => {
    const { registry } = deps.metrics;
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
  return router;
}
