export { JOB_PRODUCTS, QUEUE_JOBS } from './declared-jobs';
export { throughQueue, type JobDeadlines, type RunThroughQueue } from './through-queue';
export { QUEUE, closeQueueEvents, createQueue, createQueueEvents, defaultJobOptions, type QueueName } from './queues';
export {
  SCORE_TEXT_JOB,
  enqueueScoreText,
  jobIdFor,
  scoreThroughQueue,
  scoreTextPayloadSchema,
  type JobIdentity,
  type ScoreTextPayload,
  type ScoreTextResult,
} from './score-text.job';
export { awaitResult } from './await-result';
export { bindQueueEvents } from './job-watch';
export { decodeJobError, encodeJobError, type EncodedJobError } from './job-error';
export { enqueueWithDeadline } from './enqueue';
export {
  SETTLE_PAYMENT_JOB,
  enqueueSettlePayment,
  settleJobId,
  settlePaymentPayloadSchema,
  type SettlePaymentPayload,
  type SettlePaymentResult,
} from './settle-payment.job';
export { JOB_OWNER_FIELD, JOB_OWNER_PROPERTIES, jobOwnerOf } from './job-owner';
export {
  STRESS_TEST_JOB,
  STRESS_TEST_WEAKEST,
  enqueueStressTest,
  stressTestPayloadSchema,
  stressThroughQueue,
  type StressTestPayload,
  type StressTestResult,
} from './stress-test.job';
export {
  REWRITE_JOB,
  rewriteJobId,
  rewritePayloadSchema,
  rewriteThroughQueue,
  type RewriteJobResult,
  type RewritePayload,
} from './rewrite.job';
export {
  DEFAULT_HISTORY_LIMIT,
  PROGRESS_REPORT_JOB,
  progressReportPayloadSchema,
  progressReportThroughQueue,
  type ProgressReport,
  type ProgressReportPayload,
  type ProgressSession,
} from './progress-report.job';
export {
  TRAINING_EXPORT_JOB,
  TRAINING_EXPORT_ROWS,
  trainingExportPayloadSchema,
  trainingExportThroughQueue,
  type LedgerPosition,
  type TrainingExportManifest,
  type TrainingExportPayload,
} from './training-export.job';
export {
  SCRIPT_CHECK_JOB,
  scriptCheckJobIdFor,
  scriptCheckPayloadSchema,
  scriptCheckThroughQueue,
  type ScriptCheckJobResult,
  type ScriptCheckPayload,
} from './script-check.job';
export {
  EMBED_CHECK_JOB,
  embedCheckJobId,
  embedCheckPayloadSchema,
  embedCheckThroughQueue,
  type EmbedCheckJobResult,
  type EmbedCheckMode,
  type EmbedCheckPayload,
} from './embed-check.job';
