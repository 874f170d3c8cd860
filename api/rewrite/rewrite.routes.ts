import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody } from '../http/validate';
import type { PaidProduct } from '../payments/paid-product';
import { paidCallOf, pay } from '../payments/pay';
import { sendQuote } from '../payments/quote';
import { rewriteProduct } from './rewrite.product';

/**
 * The paid rewrite routes: validate, quote for the wallet, pay, rewrite on the scoring queue.
 * @param deps - app dependencies
 * @param paid - the rewrite product ({@link rewriteProduct})
 * @returns the router
 */
export function rewriteRoutes(deps: AppDeps, paid: PaidProduct = rewriteProduct(deps)): Router<AppState> {
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
