import Router from '@koa/router';
import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRODUCTS } from '../../shared/products';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody, validateQuery } from '../http/validate';
import { chargeFor } from '../payments/charge';
import { pay } from '../payments/pay';
import { sendQuote } from '../payments/quote';
import { simulateQuoteQuerySchema, simulateRequestSchema, type SimulateRequest, type SimulateTier } from './simulate.schema';
import { runSimulateSession, type SimulateSession } from './simulate.service';

/**
 * The paid simulate routes: validate, build the charge, pay, present.
 * @param deps - app dependencies
 * @returns the router
 */
export function simulateRoutes(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  const product = PRODUCTS.simulate;

  router.get(product.path, validateQuery(simulateQuoteQuerySchema), async (ctx: AppContext) => {
    const { tier } = ctx.state.query as { tier: SimulateTier };
    sendQuote(ctx, deps, chargeFor(product, tier, deps.network.current()));
  });

  router.post(product.path, validateBody(simulateRequestSchema), async (ctx: AppContext) => {
    const body = ctx.state.body as SimulateRequest;
    const session: SimulateSession = { ...body, tier: body.tier ?? 'basic', share_for_calibration: body.share_for_calibration ?? false };
    await pay(
      ctx,
      deps,
      { charge: chargeFor(product, session.tier, deps.network.current()), wallet: session.wallet_address, requestHash: canonicalHash({ path: ctx.path, body: session }) },
      (paid) => runSimulateSession(deps, session, paid, ctx.state.reqId),
    );
  });

  return router;
}
