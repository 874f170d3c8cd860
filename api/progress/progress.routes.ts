import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import type { ExportsQueue } from '../http/exports-queue';
import { validateBody } from '../http/validate';
import type { PaidProduct } from '../payments/paid-product';
import { paidCallOf, pay } from '../payments/pay';
import { sendQuote } from '../payments/quote';
import { progressProduct } from './progress.product';

/**
 * The paid progress-report routes: validate, build the charge, pay, present.
 * @param deps - app dependencies and the exports queue
 * @param paid - the progress product ({@link progressProduct})
 * @returns the router
 */
export function progressRoutes(deps: AppDeps & { exports: ExportsQueue }, paid: PaidProduct = progressProduct(deps)): Router<AppState> {
  const router = createRouter();
  const { product } = paid;

  router.get(product.path, async (ctx: AppContext) => {
    sendQuote(ctx, deps, await paid.quote({}));
  });

  router.post(product.path, validateBody(paid.requestSchema), async (ctx: AppContext) => {
    const { request, work } = await paid.prepare(ctx.state.body, paidCallOf(ctx, deps));
    await pay(ctx, deps, request, work);
  });

  return router;
}
