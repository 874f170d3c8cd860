import { JOB_OWNER_PROPERTIES } from './job-owner';
import { jobIdFor, type JobIdentity } from './score-text.job';
import { throughQueue } from './through-queue';

/** Job name of a training-dataset export on the `exports` queue. */
export const TRAINING_EXPORT_JOB = 'training-export';

/** Whose ledger to export. Plain data; no secrets. */
export interface TrainingExportPayload {
  /** The paying wallet, as the ledger stores it (lowercase EVM address or base58). */
  wallet: string;
  /** Request id of the API call, so worker log lines join API lines. */
  reqId?: string;
  /** The enqueuing web's database identity, stamped by `enqueueWithDeadline` (see job-owner.ts). */
  databaseId?: string;
}

/** A position in a wallet's ledger order `(settled_at, id)`; `settled_at` is PostgreSQL's text form (microseconds kept). */
export interface LedgerPosition {
  settled_at: string;
  id: string;
}

/**
 * What the export job fixes at payment time, and nothing bigger: how many records the export has
 * and the last ledger position it includes. The web streams exactly those rows, on the first
 * delivery and on every replay.
 */
export interface TrainingExportManifest {
  records: number;
  /** The last included ledger position, or null for a wallet with no scored session. */
  high_water_mark: LedgerPosition | null;
}

/** JSON schema of {@link TrainingExportPayload}; the processor checks payloads against it. */
export const trainingExportPayloadSchema = {
  type: 'object',
  required: ['wallet'],
  additionalProperties: false,
  properties: {
    wallet: { type: 'string', minLength: 1 },
    reqId: { type: 'string' },
    ...JOB_OWNER_PROPERTIES,
  },
} as const;

/**
 * The ledger rows an export covers: the scored sessions (and stress-test runs) of one wallet.
 * One SQL condition, shared by the job that fixes the manifest and the web that streams the rows.
 */
export const TRAINING_EXPORT_ROWS = `payer = $1 AND (score IS NOT NULL OR product = 'stress-test')`;

/**
 * Fixes an export's manifest through the `exports` queue: enqueues the job (or finds the one this
 * payment made before) and waits for its result, each step with its deadline.
 */
export const trainingExportThroughQueue = throughQueue<TrainingExportPayload, TrainingExportManifest, JobIdentity>(TRAINING_EXPORT_JOB, jobIdFor);
