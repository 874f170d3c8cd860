import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context';
import { PROFILE_LIST } from './profiles.tool';

/**
 * The profile list route.
 * @returns the router
 */
export function profileRoutes(): Router<AppState> {
  const router = createRouter();
  router.get('/api/profiles', async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = PROFILE_LIST;
  });
  return router;
}
