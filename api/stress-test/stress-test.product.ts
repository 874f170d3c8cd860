import { PRODUCTS } from '../../shared/products';
import type { AppDeps } from '../http/deps';
import type { PaidProduct } from '../payments/paid-product';
import { walletPricedProduct } from '../payments/wallet-priced-product';
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
  return walletPricedProduct<StressTestRequest>(deps, {
    product: PRODUCTS.stressTest,
    requestSchema: stressTestRequestSchema,
    work: (body, call) => (paid) => runStressTest(deps, stress, body, paid, call.reqId),
  });
}
