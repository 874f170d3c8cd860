import Ajv from 'ajv';
import { UnrecoverableError, type Job, type Processor } from 'bullmq';
import type { DataSource } from 'typeorm';
import {
  encodeJobError,
  TRAINING_EXPORT_ROWS,
  trainingExportPayloadSchema,
  type LedgerPosition,
  type TrainingExportManifest,
  type TrainingExportPayload,
} from '../../jobs';
import type { Logger } from '../../shared/logger';

/** What the training-export processor needs. */
export interface TrainingExportProcessorDeps {
  dataSource: DataSource;
  log: Logger;
}

const validatePayload = new Ajv({ allErrors: true, strict: true }).compile<TrainingExportPayload>(trainingExportPayloadSchema);

/**
 * Builds the BullMQ processor of training-dataset exports on the `exports` queue. It writes
 * nothing and returns nothing big: it fixes the export at payment time (the record count and the
 * last ledger position included, its high-water mark). The web streams exactly those rows, so a
 * replay of the same payment delivers the same dataset, and no process ever holds it whole.
 * @param deps - DataSource and logger
 * @returns the processor
 */
export function createTrainingExportProcessor(deps: TrainingExportProcessorDeps): Processor<TrainingExportPayload, TrainingExportManifest> {
  return async function processTrainingExport(job: Job<TrainingExportPayload, TrainingExportManifest>) {
    if (!validatePayload(job.data)) {
      throw new UnrecoverableError(encodeJobError({ status: 500, code: 'invalid_job_payload', message: 'The job payload does not match its schema.' }));
    }
    // One statement, one snapshot: the count and the mark describe the same rows.
    const [row] = (await deps.dataSource.query(
      `SELECT count(*)::int AS records,
              (SELECT json_build_object('settled_at', settled_at::text, 'id', id) FROM ledger_sessions
                WHERE ${TRAINING_EXPORT_ROWS} ORDER BY settled_at DESC, id DESC LIMIT 1) AS mark
         FROM ledger_sessions WHERE ${TRAINING_EXPORT_ROWS}`,
      [job.data.wallet],
    )) as Array<{ records: number; mark: LedgerPosition | null }>;
    deps.log.debug({ jobId: job.id, records: row.records, reqId: job.data.reqId }, 'training export fixed');
    return { records: row.records, high_water_mark: row.mark };
  };
}
