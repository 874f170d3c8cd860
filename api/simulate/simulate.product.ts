import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRODUCTS } from '../../shared/products';
import type { AppDeps } from '../http/deps';
import { chargeFor } from '../payments/charge';
import type { PaidProduct } from '../payments/paid-product';
import { simulateQuoteQuerySchema, simulateRequestSchema, type SimulateRequest } from './simulate.schema';
import { runSimulateSession, type SimulateSession } from './simulate.service';

/**
 * The simulate product (basic and deep sessions) as every transport sells it.
 * @param deps - app dependencies
 * @returns the paid product
 */
export function simulateProduct(deps: AppDeps): PaidProduct {
  const product = PRODUCTS.simulate;
  return {
    product,
    requestSchema: simulateRequestSchema,
    quoteQuerySchema: simulateQuoteQuerySchema,
    quote: async ({ tier }) => chargeFor(product, tier ?? product.defaultTier, deps.network.current()),
    async prepare(sent, call) {
      const body = sent as SimulateRequest;
      // Defaults applied before hashing: the same request with or without them is one request.
      const session: SimulateSession = { ...body, tier: body.tier ?? 'basic', share_for_calibration: body.share_for_calibration ?? false };
      return {
        request: {
          charge: chargeFor(product, session.tier, deps.network.current()),
          wallet: session.wallet_address,
          requestHash: canonicalHash({ path: product.path, body: session }),
        },
        work: (paid) => runSimulateSession(deps, session, paid, call.reqId),
      };
    },
  };
}
