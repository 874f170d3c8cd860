import { EMBED_CHECK_JOB } from './embed-check.job';
import { PROGRESS_REPORT_JOB } from './progress-report.job';
import type { QueueName } from './queues';
import { REWRITE_JOB } from './rewrite.job';
import { SCORE_TEXT_JOB } from './score-text.job';
import { SCRIPT_CHECK_JOB } from './script-check.job';
import { SETTLE_PAYMENT_JOB } from './settle-payment.job';
import { STRESS_TEST_JOB } from './stress-test.job';
import { TRAINING_EXPORT_JOB } from './training-export.job';

/**
 * Every job the web enqueues, by queue: the contract between api and workers. A worker must have
 * exactly one processor for each (its dispatcher refuses to start otherwise), so a job added here
 * and forgotten there fails at boot, not as a request that waits for a job nobody takes.
 * Scheduled maintenance jobs are registered by the worker itself and need no entry.
 */
export const QUEUE_JOBS: Readonly<Partial<Record<QueueName, readonly string[]>>> = {
  scoring: [SCORE_TEXT_JOB, REWRITE_JOB, SCRIPT_CHECK_JOB, EMBED_CHECK_JOB],
  stress: [STRESS_TEST_JOB],
  exports: [PROGRESS_REPORT_JOB, TRAINING_EXPORT_JOB],
  settlement: [SETTLE_PAYMENT_JOB],
};

/**
 * What each job does for people, in the products' own names: a job is named for its work (one
 * scoring job serves five products), so the worker says at start which products it serves.
 */
export const JOB_PRODUCTS: Readonly<Record<string, readonly string[]>> = {
  [SCORE_TEXT_JOB]: ['free score', 'scored session (simulate)', 'duel', 'role-play turn', 'coaching drill'],
  [REWRITE_JOB]: ['rewrite'],
  [SCRIPT_CHECK_JOB]: ['script check'],
  [EMBED_CHECK_JOB]: ['embedded check'],
  [STRESS_TEST_JOB]: ['stress test'],
  [PROGRESS_REPORT_JOB]: ['progress report'],
  [TRAINING_EXPORT_JOB]: ['training dataset'],
  [SETTLE_PAYMENT_JOB]: ['every x402 payment'],
};
