import type { Job, Queue } from 'bullmq';
import { enqueueWithDeadline } from './enqueue';
import { JOB_OWNER_PROPERTIES } from './job-owner';

/** Job name of a settlement on the `settlement` queue. */
export const SETTLE_PAYMENT_JOB = 'settle-payment';

/** Which authorization to settle; everything else is read from its row. */
export interface SettlePaymentPayload {
  authorizationId: string;
  /** Request id of the API call, so worker log lines join API lines. */
  reqId?: string;
  /** The enqueuing web's database identity, stamped by `enqueueWithDeadline` (see job-owner.ts). */
  databaseId?: string;
}

/**
 * How a settlement ended: the receipt; a failure that moved nothing (the facilitator's refusal
 * with a reason that proves it, or an authorization the chain shows can never execute); or
 * pending, when the outcome is not known (the answer was lost, timed out, or proved nothing, and
 * the chain does not show the transfer yet): money may have moved, the authorization stays
 * replayable, and `retryAfterSeconds` says when a retry with it makes sense.
 */
export type SettlePaymentResult =
  /** `rewardsDue` false: when the ledger row was written the payer had no referral rewards waiting (absent: not known). */
  | { success: true; transaction: string; network: string; payer: string; rewardsDue?: boolean }
  | { success: false; errorReason: string; errorMessage?: string; network: string; payer: string }
  | { success: false; pending: true; errorReason: string; retryAfterSeconds: number; network: string; payer: string };

/** JSON schema of {@link SettlePaymentPayload}; the processor checks payloads against it. */
export const settlePaymentPayloadSchema = {
  type: 'object',
  required: ['authorizationId'],
  additionalProperties: false,
  properties: {
    authorizationId: { type: 'string', format: 'uuid' },
    reqId: { type: 'string' },
    ...JOB_OWNER_PROPERTIES,
  },
} as const;

/**
 * The settlement job id: one per authorization and failed-attempt count, so concurrent replays
 * share one job, while a retry after a recorded failure gets a fresh job (BullMQ would hand back
 * the old failed one).
 * @param authorizationId - the authorization
 * @param settleAttempts - failed settlements recorded so far
 * @returns the job id
 */
export function settleJobId(authorizationId: string, settleAttempts: number): string {
  return `settle-${authorizationId}-${settleAttempts}`;
}

/**
 * Enqueues the settlement of a scored authorization.
 * @param queue - the `settlement` queue on a fail-fast connection
 * @param payload - the authorization id
 * @param settleAttempts - failed settlements recorded so far
 * @param timeoutMs - enqueue deadline
 * @returns the job
 */
export function enqueueSettlePayment(
  queue: Queue,
  payload: SettlePaymentPayload,
  settleAttempts: number,
  timeoutMs: number,
): Promise<Job<SettlePaymentPayload, SettlePaymentResult>> {
  return enqueueWithDeadline(queue, SETTLE_PAYMENT_JOB, payload, settleJobId(payload.authorizationId, settleAttempts), timeoutMs);
}
