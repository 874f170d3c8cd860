import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { UnrecoverableError, type Job, type Processor } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { encodeJobError, settlePaymentPayloadSchema, type SettlePaymentPayload, type SettlePaymentResult } from '../../jobs';
import type { Logger } from '../../shared/logger';
import type { AuthorizationChainReader } from '../../shared/payments/authorization-chain-state';
import {
  getAuthorization,
  recordSettleFailedForGood,
  recordSettleFailure,
  recordSettleUnknown,
  type AuthorizationRow,
  type StoredPayment,
} from '../../shared/payments/authorization-store';
import { FacilitatorUnavailableError, type Facilitator } from '../../shared/payments/facilitator-client';
import { provesNothingMoved, recordAndPublishSettlement, resolveSettlementOnChain } from '../../shared/payments/settlement-outcome';

/** What the settlement processor needs. */
export interface SettlePaymentProcessorDeps {
  dataSource: DataSource;
  facilitator: Facilitator;
  /** Reads authorizations on chain (`EVM_RPC_URL`); undefined when not configured: unknown outcomes stay pending. */
  chain?: AuthorizationChainReader;
  /** A normal connection for publishing to the live feed. */
  redis: Redis;
  queuePrefix: string;
  log: Logger;
}

const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
const validatePayload = ajv.compile<SettlePaymentPayload>(settlePaymentPayloadSchema);

function unrecoverable(code: string, message: string): UnrecoverableError {
  return new UnrecoverableError(encodeJobError({ status: 500, code, message }));
}

function receipt(row: AuthorizationRow, transaction: string, rewardsDue?: boolean): SettlePaymentResult {
  return { success: true, transaction, network: row.network, payer: row.payer, rewardsDue };
}

function failure(row: AuthorizationRow, errorReason: string, errorMessage?: string): SettlePaymentResult {
  return { success: false, errorReason, errorMessage, network: row.network, payer: row.payer };
}

/** What one facilitator settle call came to, before the chain is asked. */
type Attempt =
  | { kind: 'settled'; transaction: string }
  /** A refusal whose reason proves this call moved nothing. */
  | { kind: 'refused'; reason: string; message?: string }
  /** No answer, a 5xx, or a refusal that proves nothing: money may have moved. */
  | { kind: 'unknown'; reason: string; err: Error };

async function attemptSettle(facilitator: Facilitator, payment: Extract<StoredPayment, { rail: 'exact-evm' }>, earlierUnknown: boolean): Promise<Attempt> {
  let settled;
  try {
    settled = await facilitator.settle(payment.payload as unknown as PaymentPayload, payment.requirements as unknown as PaymentRequirements);
  } catch (err) {
    if (!(err instanceof FacilitatorUnavailableError)) throw err;
    return { kind: 'unknown', reason: 'facilitator_unavailable', err };
  }
  if (settled.success && settled.transaction) return { kind: 'settled', transaction: settled.transaction };
  const reason = settled.success ? 'settle_without_transaction' : (settled.errorReason ?? 'settle_failed');
  // A reason proves nothing about an earlier attempt whose outcome is unknown (it may have moved
  // the money, and drained the balance this refusal complains about).
  if (!settled.success && provesNothingMoved(reason) && !earlierUnknown) return { kind: 'refused', reason, message: settled.errorMessage };
  return { kind: 'unknown', reason, err: new Error(`settlement outcome unknown: ${reason}`) };
}

/**
 * Builds the processor of the `settlement` queue. It settles a scored authorization through the
 * facilitator (legacy SOL transfers are already final on chain and are only recorded), then marks
 * it settled and writes the ledger row in one transaction, then publishes the live-feed event.
 *
 * Only a refusal whose reason proves that nothing moved is answered as a failure. Any other
 * outcome (no answer, a timeout, a 5xx, another refusal) is unknown: it is recorded on the row
 * and the chain is asked at once. The transfer happened: it is recorded and delivered.
 * The authorization can never execute any more (expired unused by the chain's clock): a failure,
 * for good. Otherwise the settle call is retried with backoff, and after the last attempt the
 * result is pending: the authorization stays replayable and the maintenance reconciler keeps
 * asking the chain. Settling an already settled authorization returns its receipt again.
 * @param deps - DataSource, facilitator, chain reader, feed connection, logger
 * @returns the processor
 */
export function createSettlePaymentProcessor(deps: SettlePaymentProcessorDeps): Processor<SettlePaymentPayload, SettlePaymentResult> {
  return async function processSettlePayment(job: Job<SettlePaymentPayload, SettlePaymentResult>) {
    if (!validatePayload(job.data)) throw unrecoverable('invalid_job_payload', 'The job payload does not match its schema.');
    const log = deps.log.child({ jobId: job.id, queue: job.queueName, attempt: job.attemptsMade + 1, reqId: job.data.reqId });
    const row = await getAuthorization(deps.dataSource, job.data.authorizationId);
    if (!row) throw unrecoverable('authorization_not_found', 'The authorization to settle does not exist.');
    if (row.status === 'settled' && row.transaction) return receipt(row, row.transaction);
    if (row.status !== 'scored') throw unrecoverable('authorization_not_scored', 'Only a delivered result is settled.');
    if (row.settleFailedAt) return failure(row, row.lastError ?? 'authorization_expired', 'The authorization can never be settled; nothing was charged.');

    let transaction: string;
    if (row.payment.rail === 'sol-transfer') {
      transaction = row.payment.signature;
    } else {
      // An earlier start of this job (a retry, or a stalled worker's) may have sent a settlement too.
      const attempt = await attemptSettle(deps.facilitator, row.payment, row.settleUnknownSince !== null || job.attemptsStarted > 1);
      if (attempt.kind === 'refused') {
        await recordSettleFailure(deps.dataSource, row.id, attempt.reason);
        log.warn({ reason: attempt.reason }, 'settlement refused');
        return failure(row, attempt.reason, attempt.message);
      }
      if (attempt.kind === 'unknown') {
        await recordSettleUnknown(deps.dataSource, row.id, attempt.reason, false);
        const verdict = await resolveSettlementOnChain(deps.chain, row, log);
        if (verdict.outcome === 'failed') {
          await recordSettleFailedForGood(deps.dataSource, row.id, verdict.reason);
          log.warn({ reason: verdict.reason, settleFault: attempt.reason }, 'settlement failed for good');
          return failure(row, verdict.reason, verdict.message);
        }
        if (verdict.outcome === 'pending') {
          const attempts = job.opts.attempts ?? 1;
          if (job.attemptsMade + 1 < attempts) throw attempt.err; // BullMQ retries with backoff
          await recordSettleUnknown(deps.dataSource, row.id, attempt.reason, true);
          log.warn({ err: attempt.err, chain: verdict.reason }, 'settlement outcome unknown: pending');
          return { success: false, pending: true, errorReason: attempt.reason, retryAfterSeconds: verdict.retryAfterSeconds, network: row.network, payer: row.payer };
        }
        log.info({ settleFault: attempt.reason }, 'settlement outcome read from the chain');
        transaction = verdict.transaction;
      } else {
        transaction = attempt.transaction;
      }
    }

    const entry = await recordAndPublishSettlement({ ...deps, log }, row.id, transaction);
    if (entry) {
      log.info({ product: entry.product, tier: entry.tier }, 'payment settled');
      return receipt(row, transaction, entry.rewardsDue);
    }
    // Settled meanwhile by another attempt or the reconciler: answer with the recorded transaction.
    const again = await getAuthorization(deps.dataSource, row.id);
    return receipt(row, again?.transaction ?? transaction);
  };
}
