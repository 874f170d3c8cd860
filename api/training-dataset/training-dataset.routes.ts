import Router from '@koa/router';
import type { TrainingExportManifest } from '../../jobs';
import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRODUCTS } from '../../shared/products';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import type { ExportsQueue } from '../http/exports-queue';
import { validateBody } from '../http/validate';
import { walletKey } from '../payments/bundle-credit/wallet-key';
import { chargeFor } from '../payments/charge';
import { quoteFor } from '../payments/loyalty';
import { pay } from '../payments/pay';
import { sendQuote } from '../payments/quote';
import { datasetStream } from './dataset-stream';
import { trainingDatasetRequestSchema, type TrainingDatasetRequest } from './training-dataset.schema';
import { runTrainingExport } from './training-dataset.service';

/**
 * The paid training-dataset routes: validate, build the charge, pay, then stream. The pipeline
 * delivers the stored manifest (first delivery and replays alike); the route turns a delivered
 * 200 into the JSON Lines stream of the rows that manifest fixed.
 * @param deps - app dependencies and the exports queue
 * @returns the router
 */
export function trainingDatasetRoutes(deps: AppDeps & { exports: ExportsQueue }): Router<AppState> {
  const router = new Router<AppState>();
  const product = PRODUCTS.trainingDataset;

  router.get(product.path, async (ctx: AppContext) => {
    sendQuote(ctx, deps, chargeFor(product));
  });

  router.post(product.path, validateBody(trainingDatasetRequestSchema), async (ctx: AppContext) => {
    const sent = ctx.state.body as TrainingDatasetRequest;
    // Defaults applied before hashing: the same request with or without them is one request.
    const body: TrainingDatasetRequest = { ...sent, include_text: sent.include_text ?? true };
    const includeText = body.include_text === true;
    const charge = await quoteFor(deps.dataSource, product, undefined, body.wallet_address);
    await pay(ctx, deps, { charge, wallet: body.wallet_address, requestHash: canonicalHash({ path: ctx.path, body }) }, (paid) =>
      runTrainingExport(deps, includeText, paid, ctx.state.reqId),
    );
    if (ctx.status !== 200) return;
    const delivered = ctx.body as Record<string, unknown> & TrainingExportManifest;
    ctx.type = 'application/jsonl; charset=utf-8';
    ctx.body = datasetStream(deps.dataSource, walletKey(body.wallet_address), delivered, delivered, includeText);
  });

  return router;
}
