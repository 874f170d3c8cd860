import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateQuery } from '../http/validate';
import { loadCorpusInsights } from './corpus-insights';
import { conversionQuerySchema, type ConversionQuery } from './operator.schema';
import { loadConversion } from './public-results-conversion';
import { loadReportedUplift } from './reported-uplift';

/**
 * The operator reads. The operator credential is checked before routing, by `operatorGuard`,
 * for every path under `/api/operator`.
 * @param deps - app dependencies
 * @returns the router
 */
export function operatorRoutes(deps: AppDeps): Router<AppState> {
  const router = createRouter();

  router.get('/api/operator/corpus-insights', async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'no-store');
    const [insights, reported] = await Promise.all([loadCorpusInsights(deps.dataSource), loadReportedUplift(deps.dataSource)]);
    ctx.body = { ...insights, reported_uplift: reported };
  });

  router.get('/api/operator/public-results/conversion', validateQuery(conversionQuerySchema), async (ctx: AppContext) => {
    const query = ctx.state.query as ConversionQuery;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await loadConversion(deps.dataSource, query.days);
  });

  return router;
}
