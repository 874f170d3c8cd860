import Router from '@koa/router';
import { DEFAULT_HISTORY_LIMIT } from '../../jobs';
import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRODUCTS } from '../../shared/products';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import type { ExportsQueue } from '../http/exports-queue';
import { validateBody } from '../http/validate';
import { chargeFor } from '../payments/charge';
import { quoteFor } from '../payments/loyalty';
import { pay } from '../payments/pay';
import { sendQuote } from '../payments/quote';
import { progressRequestSchema, type ProgressRequest } from './progress.schema';
import { progressCharge, runProgressReport } from './progress.service';

/**
 * The paid progress-report routes: validate, build the charge, pay, present.
 * @param deps - app dependencies and the exports queue
 * @returns the router
 */
export function progressRoutes(deps: AppDeps & { exports: ExportsQueue }): Router<AppState> {
  const router = new Router<AppState>();
  const product = PRODUCTS.progress;

  router.get(product.path, async (ctx: AppContext) => {
    sendQuote(ctx, deps, progressCharge(chargeFor(product)));
  });

  router.post(product.path, validateBody(progressRequestSchema), async (ctx: AppContext) => {
    const sent = ctx.state.body as ProgressRequest;
    // Defaults applied before hashing: the same request with or without them is one request.
    const body: ProgressRequest = { ...sent, history_limit: sent.history_limit ?? DEFAULT_HISTORY_LIMIT };
    const charge = progressCharge(await quoteFor(deps.dataSource, product, undefined, body.wallet_address));
    await pay(ctx, deps, { charge, wallet: body.wallet_address, requestHash: canonicalHash({ path: ctx.path, body }) }, (paid) =>
      runProgressReport(deps, body, paid, ctx.state.reqId),
    );
  });

  return router;
}
