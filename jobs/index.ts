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
  SCRIPT_CHECK_JOB,
  scriptCheckJobIdFor,
  scriptCheckPayloadSchema,
  scriptCheckThroughQueue,
  type ScriptCheckJobResult,
  type ScriptCheckPayload,
} from './script-check.job';
