import { trainingExportThroughQueue, type TrainingExportManifest } from '../../jobs';
import type { AppDeps } from '../http/deps';
import type { ExportsQueue } from '../http/exports-queue';
import type { PaidWorkContext, WorkOutcome } from '../payments/paid-work';
import { DATASET_FORMAT } from './dataset-stream';

/**
 * Runs one training-dataset export under a payment: the `exports` job fixes the export (record
 * count and high-water mark) from the paying wallet's ledger; that small manifest is the stored,
 * replayable body, and the web streams the rows it names (see `dataset-stream.ts`).
 * @param deps - app dependencies and the exports queue
 * @param includeText - whether the records carry the stored texts
 * @param paid - the payment's result id, payer and job identity
 * @param reqId - request id, for the worker's log lines
 * @returns the body and the ledger summary (an export scores nothing)
 */
export async function runTrainingExport(
  deps: AppDeps & { exports: ExportsQueue },
  includeText: boolean,
  paid: PaidWorkContext,
  reqId: string,
): Promise<WorkOutcome> {
  const manifest: TrainingExportManifest = await trainingExportThroughQueue(deps.exports.queue, deps.exports.events, { wallet: paid.payer, reqId }, paid.jobIdentity, deps.config.jobs);
  return {
    response: {
      result_id: paid.resultId,
      format: DATASET_FORMAT,
      content_type: 'application/jsonl',
      records: manifest.records,
      high_water_mark: manifest.high_water_mark,
      include_text: includeText,
      improvement:
        manifest.records === 0
          ? 'No scored session yet: run paid POST /api/simulate sessions (with store_text_for_training: true to keep the texts) and export again.'
          : 'Fine-tune on the session lines whose metrics.passed is true, and weigh the gaps to see which dimension the model must move.',
    },
    summary: { profile: null, score: null, passed: null, scorerVersion: 'training-export' },
    calibrationText: null,
  };
}
