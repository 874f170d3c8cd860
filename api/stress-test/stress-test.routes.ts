import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody, validateQuery } from '../http/validate';
import type { PaidProduct } from '../payments/paid-product';
import { paidCallOf, pay } from '../payments/pay';
import { sendQuote } from '../payments/quote';
import type { StressQueue } from './stress-queue';
import { stressTestProduct } from './stress-test.product';
import { stressTestQuoteQuerySchema, type StressTestQuoteQuery } from './stress-test.schema';

/**
 * The paid stress-test routes: validate, build the charge (the live quote for the wallet), pay, present.
 * @param deps - app dependencies
 * @param stress - the `stress` queue and its QueueEvents
 * @param paid - the stress-test product ({@link stressTestProduct})
 * @returns the router
 */
export function stressTestRoutes(deps: AppDeps, stress: StressQueue, paid: PaidProduct = stressTestProduct(deps, stress)): Router<AppState> {
  const router = createRouter();
  const { product } = paid;

  router.get(product.path, validateQuery(stressTestQuoteQuerySchema), async (ctx: AppContext) => {
    const { wallet_address } = ctx.state.query as StressTestQuoteQuery;
    sendQuote(ctx, deps, await paid.quote({ wallet_address }));
  });

  router.post(product.path, validateBody(paid.requestSchema), async (ctx: AppContext) => {
    const { request, work } = await paid.prepare(ctx.state.body, paidCallOf(ctx, deps));
    await pay(ctx, deps, request, work);
  });

  return router;
}
