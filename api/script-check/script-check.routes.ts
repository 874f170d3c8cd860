import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody } from '../http/validate';
import type { PaidProduct } from '../payments/paid-product';
import { paidCallOf, pay } from '../payments/pay';
import { sendQuote } from '../payments/quote';
import { scriptCheckProduct } from './script-check.product';

/**
 * The paid script-check routes: validate, build the charge (the live quote for the wallet),
 * pay, present. GET answers the base quote and never settles.
 * @param deps - app dependencies
 * @param paid - the script-check product ({@link scriptCheckProduct})
 * @returns the router
 */
export function scriptCheckRoutes(deps: AppDeps, paid: PaidProduct = scriptCheckProduct(deps)): Router<AppState> {
  const router = createRouter();
  const { product } = paid;

  router.get(product.path, async (ctx: AppContext) => {
    sendQuote(ctx, deps, await paid.quote({}));
  });

  router.post(product.path, validateBody(paid.requestSchema, { refine: paid.refine }), async (ctx: AppContext) => {
    const { request, work } = await paid.prepare(ctx.state.body, paidCallOf(ctx, deps));
    await pay(ctx, deps, request, work);
  });

  return router;
}
