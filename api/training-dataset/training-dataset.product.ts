import type { Readable } from 'node:stream';
import type { TrainingExportManifest } from '../../jobs';
import { PRODUCTS } from '../../shared/products';
import type { AppDeps } from '../http/deps';
import type { ExportsQueue } from '../http/exports-queue';
import { walletKey } from '../payments/bundle-credit/wallet-key';
import type { PaidProduct } from '../payments/paid-product';
import { walletPricedProduct } from '../payments/wallet-priced-product';
import { datasetStream, type DatasetFormat } from './dataset-stream';
import { trainingDatasetRequestSchema, type TrainingDatasetRequest } from './training-dataset.schema';
import { runTrainingExport } from './training-dataset.service';

// Defaults applied before hashing: the same request with or without them is one request.
function withDefaults(body: TrainingDatasetRequest): TrainingDatasetRequest {
  return { ...body, include_text: body.include_text ?? true };
}

/**
 * The export of a delivered manifest: the rows that manifest fixed (first delivery and replays
 * alike), as one JSON document or as JSON Lines.
 * @param deps - app dependencies
 * @param sent - the validated request
 * @param delivered - the delivered body (the stored manifest and the payment)
 * @param format - `json` or `jsonl` (default)
 * @returns the stream
 */
export function trainingDatasetLines(deps: AppDeps, sent: unknown, delivered: Record<string, unknown>, format: DatasetFormat = 'jsonl'): Readable {
  const body = withDefaults(sent as TrainingDatasetRequest);
  const manifest = delivered as Record<string, unknown> & TrainingExportManifest;
  // The stored manifest names the lines' media type; each delivery names the one it is sent in.
  const header = { ...manifest, content_type: format === 'json' ? 'application/json' : 'application/jsonl' };
  return datasetStream(deps.dataSource, walletKey(body.wallet_address), manifest, header, body.include_text === true, format);
}

/**
 * The training-dataset export as every transport sells it. Over HTTP the delivery is a JSON
 * document, or JSON Lines when asked; an agent's tool result holds the lines as parsed records.
 * @param deps - app dependencies and the exports queue
 * @returns the paid product
 */
export function trainingDatasetProduct(deps: AppDeps & { exports: ExportsQueue }): PaidProduct {
  return walletPricedProduct<TrainingDatasetRequest>(deps, {
    product: PRODUCTS.trainingDataset,
    requestSchema: trainingDatasetRequestSchema,
    withDefaults,
    work: (body, call) => (paid) => runTrainingExport(deps, body.include_text === true, paid, call.reqId),
    async presentForAgent(delivered, sent) {
      let text = '';
      for await (const chunk of trainingDatasetLines(deps, sent, delivered)) text += String(chunk);
      const records = text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      return { ...delivered, records };
    },
  });
}
