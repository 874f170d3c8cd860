import { DEFAULT_HISTORY_LIMIT } from '../../jobs';
import { PRODUCTS } from '../../shared/products';
import type { AppDeps } from '../http/deps';
import type { ExportsQueue } from '../http/exports-queue';
import type { PaidProduct } from '../payments/paid-product';
import { walletPricedProduct } from '../payments/wallet-priced-product';
import { progressRequestSchema, type ProgressRequest } from './progress.schema';
import { progressCharge, runProgressReport } from './progress.service';

/**
 * The progress report as every transport sells it.
 * @param deps - app dependencies and the exports queue
 * @returns the paid product
 */
export function progressProduct(deps: AppDeps & { exports: ExportsQueue }): PaidProduct {
  return walletPricedProduct<ProgressRequest>(deps, {
    product: PRODUCTS.progress,
    requestSchema: progressRequestSchema,
    withDefaults: (given) => ({ ...given, history_limit: given.history_limit ?? DEFAULT_HISTORY_LIMIT }),
    adjustCharge: progressCharge,
    work: (body, call) => (paid) => runProgressReport(deps, body, paid, call.reqId),
  });
}
