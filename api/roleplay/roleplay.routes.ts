import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody } from '../http/validate';
import type { PaidProduct } from '../payments/paid-product';
import { paidRoutes } from '../payments/paid-routes';
import { feelingList, joinRoom, openRoomList, roomReport } from './roleplay-reads';
import { roleplayProduct } from './roleplay.product';
import { joinRoomRequestSchema, turnRequestSchema, type JoinRoomRequest, type TurnRequest } from './roleplay.schema';
import { SESSION_SECRET_HEADER, sessionSecretHashFrom } from './session-secret';
import { takeTurn } from './turn.service';

export { OPEN_LIST_LIMIT } from './roleplay-reads';

/**
 * The role-play routes: open a room (paid, {@link roleplayProduct}), the open list, the feelings,
 * join (free), turns (by session secret) and the room's state and report.
 * @param deps - app dependencies
 * @param paid - the role-play product
 * @returns the router
 */
export function roleplayRoutes(deps: AppDeps, paid: PaidProduct = roleplayProduct(deps)): Router<AppState> {
  const router = paidRoutes(deps, paid);

  router.get('/api/roleplay/open', async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await openRoomList(deps);
  });

  router.get('/api/roleplay/feelings', async (ctx: AppContext) => {
    ctx.body = feelingList();
  });

  router.post('/api/roleplay/join', validateBody(joinRoomRequestSchema), async (ctx: AppContext) => {
    const { room_id } = ctx.state.body as JoinRoomRequest;
    const joined = await joinRoom(deps, room_id);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = joined;
  });

  router.post('/api/roleplay/turn', validateBody(turnRequestSchema), async (ctx: AppContext) => {
    const body = ctx.state.body as TurnRequest;
    const secretHash = sessionSecretHashFrom(ctx.get(SESSION_SECRET_HEADER));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await takeTurn(deps, body, secretHash, ctx.state.reqId);
  });

  router.get('/api/roleplay/:room_id', async (ctx: AppContext) => {
    const secretHash = sessionSecretHashFrom(ctx.get(SESSION_SECRET_HEADER));
    const report = await roomReport(deps, ctx.params.room_id, secretHash);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = report;
  });

  return router;
}
