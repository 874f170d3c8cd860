import type Router from '@koa/router';
import type { AppContext, AppState } from '../http/context';
import { createRouter } from '../http/create-router';
import type { AppDeps } from '../http/deps';
import { WALLET_ADDRESS_SCHEMA } from '../http/fields.schema';
import { PROOF_CARD_VIA } from '../http/payment-evidence';
import { validateBody, validateQuery } from '../http/validate';
import type { PaidProduct } from './paid-product';
import { paidCallOf, pay } from './pay';
import { sendQuote } from './quote';

/** The query of a GET quote when a product names none: the wallet to quote for. */
export const WALLET_QUOTE_QUERY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    wallet_address: { ...WALLET_ADDRESS_SCHEMA, description: 'Quote for this wallet (its loyalty discount, where the product gives one); without it, the list price.' },
    [PROOF_CARD_VIA.param]: { type: 'string', enum: [PROOF_CARD_VIA.value], description: 'Attribution marker of a proof card link; changes nothing in the quote.' },
  },
} as const;

/**
 * Mounts a paid product on HTTP, the twin of the MCP endpoint's paid tool: `GET <path>` answers
 * the live quote (the very charge `prepare` would build for the same wallet and tier, so a GET
 * returns the challenge a POST would), and `POST <path>` validates the body, prepares the
 * purchase and runs the one payment pipeline. A family adds its own reads to the router it gets
 * back.
 * @param deps - app dependencies
 * @param paid - the product as every transport sells it
 * @param options - `afterDelivery` re-presents a 200 for HTTP (a stream, another media type)
 * @returns the router holding the two routes
 */
export function paidRoutes(deps: AppDeps, paid: PaidProduct, options: { afterDelivery?: (ctx: AppContext) => void | Promise<void> } = {}): Router<AppState> {
  const router = createRouter();
  const { product } = paid;

  router.get(product.path, validateQuery(paid.quoteQuerySchema ?? WALLET_QUOTE_QUERY_SCHEMA), async function quotePaidProduct(ctx: AppContext) {
    const { tier, plan, wallet_address } = ctx.state.query as { tier?: string; plan?: string; wallet_address?: string };
    sendQuote(ctx, deps, await paid.quote({ tier: tier ?? plan, wallet_address }));
  });

  router.post(product.path, validateBody(paid.requestSchema, { refine: paid.refine }), async function payForPaidProduct(ctx: AppContext) {
    const { request, work } = await paid.prepare(ctx.state.body, paidCallOf(ctx, deps));
    await pay(ctx, deps, request, work);
    if (ctx.status === 200 && options.afterDelivery) await options.afterDelivery(ctx);
  });

  return router;
}
