import type { SettleResponse } from '@x402/core/types';
import { getAddress } from 'viem';
import { awaitResult, enqueueSettlePayment, type SettlePaymentResult } from '../../../jobs';
import { AppError, JobTimeoutError } from '../../../shared/errors';
import { SETTLE_RETRY_AFTER_SECONDS, settlementPendingError } from '../../../shared/payments/settlement-outcome';
import {
  findAuthorization,
  getAuthorization,
  releaseAuthorization,
  reserveAuthorization,
  storeResult,
  type AuthorizationRow,
} from '../../../shared/payments/authorization-store';
import type { AppDeps } from '../../http/deps';
import { bindIdempotencyKey, findIdempotencyBinding, idempotencyKeyHash } from '../idempotency';
import type { Delivery, DeliveryExtras, MethodRequest, PaidWork, WorkOutcome } from '../paid-work';
import type { PaymentExchange, PayOutcome } from '../payment-exchange';
import { InvalidPaymentHeaderError } from '../payment-header-error';
import { paymentRequiredOutcome, quoteOutcome } from '../quote';
import type { PaymentClaim, Refusal } from '../rails/rail';
import { rewardDeliveryExtras } from '../reward-delivery';
import type { PaymentMethod } from './payment-method';
import { MCP_PAYMENT_META_KEY, readPaymentClaim, readX402Proof, type X402Proof } from './x402-proof';

/**
 * Per-call x402 payments: x402 v2 (`PAYMENT-SIGNATURE`, or the PaymentPayload in MCP
 * `_meta["x402/payment"]`) on the exact EVM rail, and the legacy SOL rail (`X-PAYMENT`, or
 * `tx_hash` in the body). It pays for every product.
 */
export const x402Method: PaymentMethod<X402Proof> = {
  id: 'x402',
  proof: 'a payment (PAYMENT-SIGNATURE, X-PAYMENT or tx_hash)',
  headers: [
    {
      name: 'PAYMENT-SIGNATURE',
      description: 'x402 v2: base64 of JSON {x402Version: 2, resource: {url}, accepted, payload: {signature, authorization}}.',
      secret: true,
    },
    {
      name: 'X-PAYMENT',
      description: 'x402 v1 legacy (SOL): base64 of JSON {x402Version: 1, scheme: "exact", network, payload: {signature, payer}}.',
      secret: true,
    },
  ],
  exposedHeaders: ['PAYMENT-REQUIRED', 'PAYMENT-RESPONSE', 'X-PAYMENT-RESPONSE'],
  metaKeys: [MCP_PAYMENT_META_KEY],
  read: readX402Proof,
  accepts: () => true,
  run: payPerCall,
};

/**
 * The x402 method of the payment pipeline: a paid request end to end, payment verified (signature, signer == wallet_address, exact
 * amount, payTo, asset, network, time window, resource, then the facilitator), the authorization
 * reserved in PostgreSQL before any work, the work, the response stored, settlement through the
 * `settlement` queue, then the answer with its receipt. The same authorization with the same
 * request resumes or replays (never a second charge); with another request it is a 409.
 * @param proof - the payment the call carries
 * @param exchange - the call: its resource, request id and logger
 * @param deps - app dependencies
 * @param request - charge, wallet, request hash, idempotency key
 * @param work - the paid work
 * @returns the challenge or the delivery
 */
async function payPerCall(proof: X402Proof, exchange: PaymentExchange, deps: AppDeps, request: MethodRequest, work: PaidWork): Promise<PayOutcome> {
  const { product, tier } = request.charge;
  // A call that carries a payment is the retry after a challenge (or a replay).
  await deps.evidence.retried(exchange, product);
  // Everything up to the stored result runs through the admission gate, first come first served;
  // the settlement's wait (a block) does not hold a place in it.
  const ready = await deps.paidAdmission.run(() => payUpToSettlement(proof, exchange, deps, request, work), {
    kind: `${product}:${tier ?? ''}`,
    // Only a call that verified, worked and stored its result is a sample of that work.
    counts: (r) => r.kind === 'worked' && !r.replayed,
  });
  return ready.kind === 'worked' ? settleAndDeliver(exchange, deps, ready.row, request, ready.replayed) : ready;
}

/** A paid call whose work is done and stored (or found done), its settlement next. */
interface Worked {
  kind: 'worked';
  row: AuthorizationRow;
  replayed: boolean;
}

async function payUpToSettlement(proof: X402Proof, exchange: PaymentExchange, deps: AppDeps, request: MethodRequest, work: PaidWork): Promise<PayOutcome | Worked> {
  const { dataSource } = deps;
  const keyHash = request.idempotencyKey === undefined ? undefined : idempotencyKeyHash(exchange.resource.key, request.idempotencyKey);
  if (keyHash) {
    // A key already bound answers from its own payment, whatever payment this retry carries.
    const bound = await findIdempotencyBinding(dataSource, keyHash);
    if (bound) {
      if (bound.requestHash !== request.requestHash) throw idempotencyConflict();
      const row = await getAuthorization(dataSource, bound.authorizationId);
      if (row) return proceed(exchange, deps, row, request, work, true);
    }
  }

  let claim: PaymentClaim | Refusal | undefined;
  try {
    claim = await readPaymentClaim(proof, exchange, deps, request);
  } catch (err) {
    // A proof that cannot be read could not be verified: 402 with the requirements and the
    // reason (section 7), as x402 servers answer, never a charge.
    if (!(err instanceof InvalidPaymentHeaderError)) throw err;
    return paymentRequiredOutcome(deps, request.charge, exchange.resource, 'invalid_payment_header', err.message, { details: err.details });
  }
  if (!claim) return quoteOutcome(deps, request.charge, exchange.resource);
  if (!claim.ok) return paymentRequiredOutcome(deps, request.charge, exchange.resource, claim.reason, claim.message);

  const existing = await findAuthorization(dataSource, claim.key);
  if (existing) return resume(exchange, deps, existing, claim, request, work);
  const reservation = await claim.verify();
  if ('ok' in reservation) return paymentRequiredOutcome(deps, request.charge, exchange.resource, reservation.reason, reservation.message);

  const { created, row } = await reserveAuthorization(dataSource, reservation);
  if (!created) return resume(exchange, deps, row, claim, request, work);
  await deps.evidence.verified(exchange, request.charge.product);
  if (keyHash) {
    const binding = await bindIdempotencyKey(dataSource, keyHash, { requestHash: request.requestHash, authorizationId: row.id });
    if (binding.authorizationId !== row.id) {
      // Another request with this key reserved first: give this authorization back untouched.
      await releaseAuthorization(dataSource, row.id);
      if (binding.requestHash !== request.requestHash) throw idempotencyConflict();
      const first = await getAuthorization(dataSource, binding.authorizationId);
      if (first) return proceed(exchange, deps, first, request, work, true);
    }
  }
  return proceed(exchange, deps, row, request, work, false);
}


function idempotencyConflict(): AppError {
  return new AppError(409, 'idempotency_conflict', 'This Idempotency-Key was used with a different request; use a new key for a new request.');
}

async function resume(
  exchange: PaymentExchange,
  deps: AppDeps,
  row: AuthorizationRow,
  claim: PaymentClaim,
  request: MethodRequest,
  work: PaidWork,
): Promise<Worked> {
  if (row.requestHash !== request.requestHash || !claim.sameProof(row)) {
    throw new AppError(409, 'payment_already_used', 'This payment was already used for another request; make a new one.');
  }
  return proceed(exchange, deps, row, request, work, true);
}

// The work under a reserved authorization, stored before any settlement (no payment without a result).
async function proceed(
  exchange: PaymentExchange,
  deps: AppDeps,
  row: AuthorizationRow,
  request: MethodRequest,
  work: PaidWork,
  replayed: boolean,
): Promise<Worked> {
  let current = row;
  if (current.status === 'reserved') {
    let outcome: WorkOutcome;
    try {
      outcome = await runWork(current, work);
    } catch (err) {
      // A request that can never succeed charges nothing and frees the authorization; a 503 or
      // 504 keeps it reserved, so the same authorization resumes the same job.
      if (err instanceof AppError && err.status < 500) await releaseAuthorization(deps.dataSource, current.id);
      throw err;
    }
    current = await storeResult(deps.dataSource, current, outcome);
  }
  return { kind: 'worked', row: current, replayed };
}

async function settleAndDeliver(exchange: PaymentExchange, deps: AppDeps, current: AuthorizationRow, request: MethodRequest, replayed: boolean): Promise<PayOutcome> {
  if (current.status === 'scored') {
    const settled = await settle(exchange, deps, current);
    deps.metrics.settlement('pending' in settled ? 'pending' : settled.success ? 'settled' : 'failed');
    if (!('pending' in settled)) await deps.evidence.settled(exchange, request.charge.product, settled.success);
    // Not known yet whether money moved: never "nothing was charged"; the authorization stays replayable.
    if ('pending' in settled) throw settlementPendingError(settled.retryAfterSeconds, { result_id: current.resultId });
    if (!settled.success) {
      const refused = paymentRequiredOutcome(
        deps,
        request.charge,
        exchange.resource,
        'settlement_failed',
        settled.errorReason === 'authorization_expired'
          ? 'The authorization expired before it could settle; nothing was charged. The result is withheld; sign a new payment to buy it.'
          : `Settlement was refused (${settled.errorReason}), which proves nothing moved; nothing was charged. The result is withheld; fix the cause and retry with the same authorization and request, or sign a new payment.`,
      );
      return {
        ...refused,
        receipt: { success: false, errorReason: settled.errorReason, transaction: '', network: settled.network as SettleResponse['network'], payer: displayPayer(current.payer) },
      };
    }
    return deliver(exchange, deps, current, request, settled.transaction, { first: !replayed, rewardsDue: settled.rewardsDue });
  }
  return deliver(exchange, deps, current, request, current.transaction ?? '', { first: false });
}

// Payers are stored lowercase (the uniqueness key); receipts show EVM addresses checksummed.
function displayPayer(payer: string): string {
  return /^0x[0-9a-f]{40}$/.test(payer) ? getAddress(payer) : payer;
}

async function settle(exchange: PaymentExchange, deps: AppDeps, row: AuthorizationRow): Promise<SettlePaymentResult> {
  const { config } = deps;
  const job = await enqueueSettlePayment(
    deps.settlementQueue,
    { authorizationId: row.id, reqId: exchange.reqId },
    row.settleAttempts,
    config.jobs.enqueueTimeoutMs,
  );
  try {
    return await awaitResult(job, deps.settlementEvents, config.payments.settleWaitMs);
  } catch (err) {
    if (err instanceof JobTimeoutError) {
      throw settlementPendingError(SETTLE_RETRY_AFTER_SECONDS, { timeout_ms: config.payments.settleWaitMs, result_id: row.resultId }, err);
    }
    throw err;
  }
}

// The work under this payment. Every per-call response carries the payer's referral code, which
// storeResult adds in the statement that stores the result.
async function runWork(row: AuthorizationRow, work: PaidWork): Promise<WorkOutcome> {
  const outcome = await work({ resultId: row.resultId, payer: row.payer, authorizationId: row.id, jobIdentity: { kind: 'payment', authorization: row.id }, method: x402Method.id });
  // Reward tokens are minted at the first delivery and never stored (see reward-delivery).
  return { ...outcome, response: { ...outcome.response, reward_bundle_tokens: [] } };
}

async function deliver(
  exchange: PaymentExchange,
  deps: AppDeps,
  row: AuthorizationRow,
  request: MethodRequest,
  transaction: string,
  delivery: Delivery,
): Promise<PayOutcome> {
  const extras: Record<string, unknown> = {};
  // The product's own extras first (a bundle token must reach its buyer even if rewards fail),
  // then the referral rewards due to the payer, which every paid response delivers (section 8).
  const sources: DeliveryExtras[] = [...(request.onDelivery ? [request.onDelivery] : []), (r, d) => rewardDeliveryExtras(deps.dataSource, r, d)];
  for (const source of sources) {
    try {
      Object.assign(extras, await source(row, delivery));
    } catch (err) {
      // The payment is settled: deliver the stored body (it says how to recover what is missing).
      exchange.log.error({ err, first: delivery.first }, 'delivery extras failed');
    }
  }
  await deps.evidence.delivered(exchange, request.charge.product, { key: `x402/${row.id}`, payer: row.payer, proves: ['successful_invocations', 'payment_settlements', 'verified_settlements'] });
  return {
    kind: 'delivered',
    body: { ...(row.response ?? {}), ...extras, payment: { network: row.network, asset: row.asset, amount: row.amount, transaction } },
    receipt: { success: true, transaction, network: row.network as SettleResponse['network'], payer: displayPayer(row.payer) },
    replayed: !delivery.first,
  };
}
