import Router from '@koa/router';
import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRODUCTS } from '../../shared/products';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody } from '../http/validate';
import { chargeFor } from '../payments/charge';
import { quoteFor } from '../payments/loyalty';
import { pay } from '../payments/pay';
import { sendQuote } from '../payments/quote';
import { rewriteRequestSchema, type RewriteRequest } from './rewrite.schema';
import { withText } from './present-rewrite';
import { runRewrite } from './rewrite.service';

/**
 * The paid rewrite routes: validate, quote for the wallet, pay, rewrite on the scoring queue.
 * @param deps - app dependencies
 * @returns the router
 */
export function rewriteRoutes(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  const product = PRODUCTS.rewrite;

  router.get(product.path, async (ctx: AppContext) => {
    sendQuote(ctx, deps, chargeFor(product));
  });

  router.post(product.path, validateBody(rewriteRequestSchema), async (ctx: AppContext) => {
    const body = ctx.state.body as RewriteRequest;
    const charge = await quoteFor(deps.dataSource, product, undefined, body.wallet_address);
    await pay(
      ctx,
      deps,
      {
        charge,
        wallet: body.wallet_address,
        requestHash: canonicalHash({ path: ctx.path, body }),
        // The text is never stored; every delivery rebuilds it from this (identical) request.
        onDelivery: async (row) => withText(row.response, body.proposed_text),
      },
      (paid) => runRewrite(deps, body, paid, ctx.state.reqId),
    );
  });

  return router;
}
