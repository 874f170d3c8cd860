import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody } from '../http/validate';
import { readOutreachStatus, updateOutreachStatus } from './outreach-status';
import { outreachUpdateSchema, type OutreachUpdate } from './outreach.schema';

/**
 * The outreach status. The operator credential is checked before routing, by `operatorGuard`,
 * for every path under `/api/outreach`; `ctx.state.credential` is set here.
 * @param deps - app dependencies
 * @returns the router
 */
export function outreachRoutes(deps: AppDeps): Router<AppState> {
  const router = createRouter();

  router.get('/api/outreach/status', async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await readOutreachStatus(deps.dataSource);
  });

  router.post('/api/outreach/status', validateBody(outreachUpdateSchema), async (ctx: AppContext) => {
    const update = ctx.state.body as OutreachUpdate;
    await updateOutreachStatus(deps.dataSource, update, ctx.state.credential!.id);
    ctx.state.log.info({ credentialId: ctx.state.credential!.id, leads: Object.keys(update).length }, 'outreach status updated');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await readOutreachStatus(deps.dataSource);
  });

  return router;
}
