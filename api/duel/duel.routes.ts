import type Router from '@koa/router';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateQuery } from '../http/validate';
import type { PaidProduct } from '../payments/paid-product';
import { paidRoutes } from '../payments/paid-routes';
import { paidCallOf } from '../payments/pay';
import { duelPromptList, duelState, duelUrlFor, openDuelList } from './duel-reads';
import { duelProduct } from './duel.product';
import { openDuelsQuerySchema, type OpenDuelsQuery } from './duel.schema';

/**
 * The duel routes: the prompts, the open list, a duel's state, the quote, and the paid
 * POST that opens or joins a duel (the product, {@link duelProduct}, refuses on state before the
 * quote and before any payment).
 * @param deps - app dependencies
 * @param paid - the duel product
 * @returns the router
 */
export function duelRoutes(deps: AppDeps, paid: PaidProduct = duelProduct(deps)): Router<AppState> {
  // The quote (the wallet's escalated fee, refused while suspended) is the product's own.
  const router = paidRoutes(deps, paid);
  const { product } = paid;

  router.get(`${product.path}/prompts`, async (ctx: AppContext) => {
    ctx.body = duelPromptList();
  });

  router.get(`${product.path}/open`, validateQuery(openDuelsQuerySchema), async (ctx: AppContext) => {
    ctx.body = await openDuelList(deps, ctx.state.query as OpenDuelsQuery, duelUrlFor(paidCallOf(ctx, deps)));
  });

  router.get(`${product.path}/:duel_id`, async (ctx: AppContext) => {
    ctx.body = await duelState(deps, ctx.params.duel_id, duelUrlFor(paidCallOf(ctx, deps)));
  });

  return router;
}
