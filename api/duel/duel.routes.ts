import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody, validateQuery } from '../http/validate';
import type { PaidProduct } from '../payments/paid-product';
import { paidCallOf, pay } from '../payments/pay';
import { sendQuote } from '../payments/quote';
import { duelQuote, refuseIfSuspended } from './duel-fee';
import { duelPromptList, duelState, duelUrlFor, openDuelList } from './duel-reads';
import { duelProduct } from './duel.product';
import { duelQuoteQuerySchema, openDuelsQuerySchema, type DuelQuoteQuery, type OpenDuelsQuery } from './duel.schema';

/**
 * The duel routes: the prompts, the open list, a duel's state, the quote, and the paid
 * POST that opens or joins a duel (the product, {@link duelProduct}, refuses on state before the
 * quote and before any payment).
 * @param deps - app dependencies
 * @param paid - the duel product
 * @returns the router
 */
export function duelRoutes(deps: AppDeps, paid: PaidProduct = duelProduct(deps)): Router<AppState> {
  const router = createRouter();
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

  router.get(product.path, validateQuery(duelQuoteQuerySchema), async (ctx: AppContext) => {
    const { wallet_address } = ctx.state.query as DuelQuoteQuery;
    const { charge, fee } = await duelQuote(deps.dataSource, wallet_address, deps.network.current());
    refuseIfSuspended(fee);
    sendQuote(ctx, deps, charge);
    ctx.body = { ...(ctx.body as object), duel_fee: fee };
  });

  router.post(product.path, validateBody(paid.requestSchema), async (ctx: AppContext) => {
    const { request, work } = await paid.prepare(ctx.state.body, paidCallOf(ctx, deps));
    await pay(ctx, deps, request, work);
  });

  return router;
}
