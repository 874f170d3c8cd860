import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody, validateQuery } from '../http/validate';
import type { PaidProduct } from '../payments/paid-product';
import { paidCallOf, pay } from '../payments/pay';
import { sendQuote } from '../payments/quote';
import { simulateProduct } from './simulate.product';
import { simulateQuoteQuerySchema, type SimulateTier } from './simulate.schema';

/**
 * The paid simulate routes: validate, build the charge, pay, present.
 * @param deps - app dependencies
 * @param paid - the simulate product ({@link simulateProduct})
 * @returns the router
 */
export function simulateRoutes(deps: AppDeps, paid: PaidProduct = simulateProduct(deps)): Router<AppState> {
  const router = createRouter();
  const { product } = paid;

  router.get(product.path, validateQuery(simulateQuoteQuerySchema), async (ctx: AppContext) => {
    const { tier } = ctx.state.query as { tier: SimulateTier };
    sendQuote(ctx, deps, await paid.quote({ tier }));
  });

  router.post(product.path, validateBody(paid.requestSchema), async (ctx: AppContext) => {
    const { request, work } = await paid.prepare(ctx.state.body, paidCallOf(ctx, deps));
    await pay(ctx, deps, request, work);
  });

  return router;
}
