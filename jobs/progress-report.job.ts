import { JOB_OWNER_PROPERTIES } from './job-owner';
import { jobIdFor, type JobIdentity } from './score-text.job';
import { throughQueue } from './through-queue';

/** How many sessions a report lists one by one unless asked otherwise. */
export const DEFAULT_HISTORY_LIMIT = 50;

/** Job name of a progress report on the `exports` queue. */
export const PROGRESS_REPORT_JOB = 'progress-report';

/** Whose ledger to read. Plain data; no secrets. */
export interface ProgressReportPayload {
  /** The paying wallet, as the ledger stores it (lowercase EVM address or base58). */
  wallet: string;
  /** How many of the newest sessions to list one by one (default {@link DEFAULT_HISTORY_LIMIT}). */
  historyLimit?: number;
  /** Request id of the API call, so worker log lines join API lines. */
  reqId?: string;
  /** The enqueuing web's database identity, stamped by `enqueueWithDeadline` (see job-owner.ts). */
  databaseId?: string;
}

/** A settled session as the report lists it. */
export interface ProgressSession {
  settled_at: string;
  product: string;
  profile: string | null;
  eq_score: number;
  passed: boolean | null;
}

/** The progress report the worker computes from the ledger (the response body's product part). */
export interface ProgressReport {
  /** True when the wallet has no scored session: every section is then empty. */
  empty: boolean;
  /** Scored sessions on the ledger, and how many of the newest ones the report reads. */
  sessions: { total: number; in_report: number; window: number };
  /** The profile the wallet used most (ties: alphabetical), or null. */
  main_profile: string | null;
  /** The newest sessions, oldest first (at most `history_limit`). */
  history: ProgressSession[];
  history_limit: number;
  trend: { direction: 'improving' | 'declining' | 'flat'; slope_per_session: number; first_average: number; last_average: number; compared: number } | null;
  pass_streak: { current: number; best: number };
  percentile: { profile: string; value: number | null; other_bots: number; basis: string } | null;
  /** Mean measured - target per text dimension, over the sessions on the main profile with frozen targets. */
  dimension_gaps: Record<string, { mean_gap: number; mean_abs_gap: number; sessions: number }>;
  style_drift: {
    basis: string;
    sessions_checked: number;
    sessions_without_targets: number;
    consistent_sessions: number;
    consistency_rate: number | null;
    per_dimension: Record<string, { out_of_band: number; rate: number }>;
    drifting_dimensions: string[];
  };
  not_a_factual_accuracy_check: string;
  improvement: string;
}

/** JSON schema of {@link ProgressReportPayload}; the processor checks payloads against it. */
export const progressReportPayloadSchema = {
  type: 'object',
  required: ['wallet'],
  additionalProperties: false,
  properties: {
    wallet: { type: 'string', minLength: 1 },
    historyLimit: { type: 'integer', minimum: 1, maximum: 200 },
    reqId: { type: 'string' },
    ...JOB_OWNER_PROPERTIES,
  },
} as const;

/**
 * Computes a progress report through the `exports` queue: enqueues the job (or finds the one this
 * payment made before) and waits for its result, each step with its deadline.
 */
export const progressReportThroughQueue = throughQueue<ProgressReportPayload, ProgressReport, JobIdentity>(PROGRESS_REPORT_JOB, jobIdFor);
