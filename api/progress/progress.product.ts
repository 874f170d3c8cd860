import { DEFAULT_HISTORY_LIMIT } from '../../jobs';
import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRODUCTS } from '../../shared/products';
import type { AppDeps } from '../http/deps';
import type { ExportsQueue } from '../http/exports-queue';
import { quoteFor } from '../payments/loyalty';
import type { PaidProduct } from '../payments/paid-product';
import { progressRequestSchema, type ProgressRequest } from './progress.schema';
import { progressCharge, runProgressReport } from './progress.service';

/**
 * The progress report as every transport sells it.
 * @param deps - app dependencies and the exports queue
 * @returns the paid product
 */
export function progressProduct(deps: AppDeps & { exports: ExportsQueue }): PaidProduct {
  const product = PRODUCTS.progress;
  return {
    product,
    requestSchema: progressRequestSchema,
    quote: async ({ wallet_address }) => progressCharge(await quoteFor(deps.dataSource, product, undefined, wallet_address)),
    async prepare(sent, call) {
      const given = sent as ProgressRequest;
      // Defaults applied before hashing: the same request with or without them is one request.
      const body: ProgressRequest = { ...given, history_limit: given.history_limit ?? DEFAULT_HISTORY_LIMIT };
      const charge = progressCharge(await quoteFor(deps.dataSource, product, undefined, body.wallet_address));
      return {
        request: { charge, wallet: body.wallet_address, requestHash: canonicalHash({ path: product.path, body }) },
        work: (paid) => runProgressReport(deps, body, paid, call.reqId),
      };
    },
  };
}
