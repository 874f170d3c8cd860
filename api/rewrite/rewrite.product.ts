import { PRODUCTS } from '../../shared/products';
import type { AppDeps } from '../http/deps';
import type { PaidProduct } from '../payments/paid-product';
import { walletPricedProduct } from '../payments/wallet-priced-product';
import { withText } from './present-rewrite';
import { rewriteRequestSchema, type RewriteRequest } from './rewrite.schema';
import { runRewrite } from './rewrite.service';

/**
 * The rewrite as every transport sells it (the live quote for the wallet).
 * @param deps - app dependencies
 * @returns the paid product
 */
export function rewriteProduct(deps: AppDeps): PaidProduct {
  return walletPricedProduct<RewriteRequest>(deps, {
    product: PRODUCTS.rewrite,
    requestSchema: rewriteRequestSchema,
    // The text is never stored; every delivery rebuilds it from this (identical) request.
    onDelivery: (body) => async (row) => withText(row.response, body.proposed_text),
    work: (body, call) => (paid) => runRewrite(deps, body, paid, call.reqId),
  });
}
