import Router from '@koa/router';
import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRODUCTS } from '../../shared/products';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody, validateQuery } from '../http/validate';
import { quoteFor } from '../payments/loyalty';
import { pay } from '../payments/pay';
import { sendQuote } from '../payments/quote';
import type { StressQueue } from './stress-queue';
import { stressTestQuoteQuerySchema, stressTestRequestSchema, type StressTestQuoteQuery, type StressTestRequest } from './stress-test.schema';
import { runStressTest } from './stress-test.service';

/**
 * The paid stress-test routes: validate, build the charge (the live quote for the wallet), pay, present.
 * @param deps - app dependencies
 * @param stress - the `stress` queue and its QueueEvents
 * @returns the router
 */
export function stressTestRoutes(deps: AppDeps, stress: StressQueue): Router<AppState> {
  const router = new Router<AppState>();
  const product = PRODUCTS.stressTest;

  router.get(product.path, validateQuery(stressTestQuoteQuerySchema), async (ctx: AppContext) => {
    const { wallet_address } = ctx.state.query as StressTestQuoteQuery;
    sendQuote(ctx, deps, await quoteFor(deps.dataSource, product, undefined, wallet_address));
  });

  router.post(product.path, validateBody(stressTestRequestSchema), async (ctx: AppContext) => {
    const body = ctx.state.body as StressTestRequest;
    await pay(
      ctx,
      deps,
      {
        charge: await quoteFor(deps.dataSource, product, undefined, body.wallet_address),
        wallet: body.wallet_address,
        requestHash: canonicalHash({ path: ctx.path, body }),
      },
      (paid) => runStressTest(deps, stress, body, paid, ctx.state.reqId),
    );
  });

  return router;
}
