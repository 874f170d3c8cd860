import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRODUCTS } from '../../shared/products';
import type { AppDeps } from '../http/deps';
import { quoteFor } from '../payments/loyalty';
import type { PaidProduct } from '../payments/paid-product';
import { withText } from './present-rewrite';
import { rewriteRequestSchema, type RewriteRequest } from './rewrite.schema';
import { runRewrite } from './rewrite.service';

/**
 * The rewrite as every transport sells it (the live quote for the wallet).
 * @param deps - app dependencies
 * @returns the paid product
 */
export function rewriteProduct(deps: AppDeps): PaidProduct {
  const product = PRODUCTS.rewrite;
  return {
    product,
    requestSchema: rewriteRequestSchema,
    quote: ({ wallet_address }) => quoteFor(deps.dataSource, product, undefined, wallet_address),
    async prepare(sent, call) {
      const body = sent as RewriteRequest;
      return {
        request: {
          charge: await quoteFor(deps.dataSource, product, undefined, body.wallet_address),
          wallet: body.wallet_address,
          requestHash: canonicalHash({ path: product.path, body }),
          // The text is never stored; every delivery rebuilds it from this (identical) request.
          onDelivery: async (row) => withText(row.response, body.proposed_text),
        },
        work: (paid) => runRewrite(deps, body, paid, call.reqId),
      };
    },
  };
}
