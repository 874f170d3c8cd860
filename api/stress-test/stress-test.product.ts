import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRODUCTS } from '../../shared/products';
import type { AppDeps } from '../http/deps';
import { quoteFor } from '../payments/loyalty';
import type { PaidProduct } from '../payments/paid-product';
import type { StressQueue } from './stress-queue';
import { stressTestRequestSchema, type StressTestRequest } from './stress-test.schema';
import { runStressTest } from './stress-test.service';

/**
 * The stress test as every transport sells it (the live quote for the wallet).
 * @param deps - app dependencies
 * @param stress - the `stress` queue and its QueueEvents
 * @returns the paid product
 */
export function stressTestProduct(deps: AppDeps, stress: StressQueue): PaidProduct {
  const product = PRODUCTS.stressTest;
  return {
    product,
    requestSchema: stressTestRequestSchema,
    quote: ({ wallet_address }) => quoteFor(deps.dataSource, product, undefined, wallet_address),
    async prepare(sent, call) {
      const body = sent as StressTestRequest;
      return {
        request: {
          charge: await quoteFor(deps.dataSource, product, undefined, body.wallet_address),
          wallet: body.wallet_address,
          requestHash: canonicalHash({ path: product.path, body }),
        },
        work: (paid) => runStressTest(deps, stress, body, paid, call.reqId),
      };
    },
  };
}
