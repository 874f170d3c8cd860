import Router from '@koa/router';
import { PROFILES } from '../../shared/profiles';
import type { AppContext, AppState } from '../http/context';

const PROFILE_LIST = Object.freeze({
  count: PROFILES.length,
  profiles: PROFILES.map((p) => ({ id: p.id, name: p.name, description: p.description, targets: p.targets })),
});

/**
 * The profile list route.
 * @returns the router
 */
export function profileRoutes(): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/api/profiles', async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = PROFILE_LIST;
  });
  return router;
}
