import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { UnrecoverableError, type Job, type Processor } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { encodeJobError, settlePaymentPayloadSchema, type SettlePaymentPayload, type SettlePaymentResult } from '../../jobs';
import type { Logger } from '../../shared/logger';
import { getAuthorization, recordSettleFailure, recordSettlement, type AuthorizationRow } from '../../shared/payments/authorization-store';
import { FacilitatorUnavailableError, type Facilitator } from '../../shared/payments/facilitator-client';
import { publishSettlement } from '../../shared/payments/feed';

/** What the settlement processor needs. */
export interface SettlePaymentProcessorDeps {
  dataSource: DataSource;
  facilitator: Facilitator;
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

function receipt(row: AuthorizationRow, transaction: string): SettlePaymentResult {
  return { success: true, transaction, network: row.network, payer: row.payer };
}

/**
 * Builds the processor of the `settlement` queue. It settles a scored authorization through the
 * facilitator (legacy SOL transfers are already final on chain and are only recorded), then marks
 * it settled and writes the ledger row in one transaction, then publishes the live-feed event.
 * A facilitator that cannot be reached is retried with backoff; after the last attempt, and on a
 * refusal, the failure is recorded and returned (the API withholds the result; the authorization
 * stays replayable). Settling an already settled authorization returns its receipt again.
 * @param deps - DataSource, facilitator, feed connection, logger
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

    let transaction: string;
    if (row.payment.rail === 'sol-transfer') {
      transaction = row.payment.signature;
    } else {
      const payload = row.payment.payload as unknown as PaymentPayload;
      const requirements = row.payment.requirements as unknown as PaymentRequirements;
      let settled;
      try {
        settled = await deps.facilitator.settle(payload, requirements);
      } catch (err) {
        if (!(err instanceof FacilitatorUnavailableError)) throw err;
        const attempts = job.opts.attempts ?? 1;
        if (job.attemptsMade + 1 < attempts) throw err; // BullMQ retries with backoff
        await recordSettleFailure(deps.dataSource, row.id, 'facilitator_unavailable');
        log.warn({ err }, 'settlement failed: facilitator unreachable');
        return { success: false, errorReason: 'facilitator_unavailable', errorMessage: 'The payment facilitator could not be reached.', network: row.network, payer: row.payer };
      }
      if (!settled.success || !settled.transaction) {
        const reason = settled.errorReason ?? 'settle_failed';
        await recordSettleFailure(deps.dataSource, row.id, reason);
        log.warn({ reason }, 'settlement refused');
        return { success: false, errorReason: reason, errorMessage: settled.errorMessage, network: row.network, payer: row.payer };
      }
      transaction = settled.transaction;
    }

    const entry = await recordSettlement(deps.dataSource, row.id, transaction);
    if (entry) {
      await publishSettlement(deps.redis, deps.queuePrefix, entry).catch((err: unknown) => log.warn({ err }, 'feed publish failed'));
      log.info({ product: entry.product, tier: entry.tier }, 'payment settled');
      return receipt(row, transaction);
    }
    // Settled meanwhile by another attempt: answer with the recorded transaction.
    const again = await getAuthorization(deps.dataSource, row.id);
    return receipt(row, again?.transaction ?? transaction);
  };
}
