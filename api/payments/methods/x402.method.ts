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
import type { AppContext } from '../../http/context';
import type { AppDeps } from '../../http/deps';
import { bindIdempotencyKey, findIdempotencyBinding, idempotencyKeyHash } from '../idempotency';
import type { Delivery, DeliveryExtras, MethodRequest, PaidWork, WorkOutcome } from '../paid-work';
import { InvalidPaymentHeaderError } from '../payment-header-error';
import { paymentRequired, REPLAY_HEADER, sendQuote, setReceipt } from '../quote';
import { claimExactEvmPayment } from '../rails/exact-evm-rail';
import { claimLegacySolPayment } from '../rails/legacy-sol-rail';
import type { PaymentClaim, Refusal } from '../rails/rail';
import { referralCodeFor } from '../referral-code';
import { rewardDeliveryExtras } from '../reward-delivery';

/**
 * Whether a request carries a per-call x402 payment: x402 v2 `PAYMENT-SIGNATURE`, legacy
 * `X-PAYMENT`, or a legacy `tx_hash` in the validated body.
 * @param ctx - Koa context (after validation)
 * @returns true when a payment is present
 */
export function carriesX402Payment(ctx: AppContext): boolean {
  return Boolean(ctx.get('payment-signature') || ctx.get('x-payment') || legacyTxHash(ctx) !== undefined);
}

function legacyTxHash(ctx: AppContext): unknown {
  const body = ctx.state.body as { tx_hash?: unknown } | undefined;
  return body?.tx_hash;
}

/**
 * The x402 method of the payment pipeline: a paid request end to end, payment verified (signature, signer == wallet_address, exact
 * amount, payTo, asset, network, time window, resource, then the facilitator), the authorization
 * reserved in PostgreSQL before any work, the work, the response stored, settlement through the
 * `settlement` queue, then the answer with its receipt. The same authorization with the same
 * request resumes or replays (never a second charge); with another request it is a 409.
 * @param ctx - Koa context; the answer is set on it
 * @param deps - app dependencies
 * @param request - charge, wallet, request hash, idempotency key
 * @param work - the paid work
 */
export async function payPerCall(ctx: AppContext, deps: AppDeps, request: MethodRequest, work: PaidWork): Promise<void> {
  const { dataSource } = deps;
  const keyHash = request.idempotencyKey === undefined ? undefined : idempotencyKeyHash(ctx.path, request.idempotencyKey);
  if (keyHash) {
    // A key already bound answers from its own payment, whatever payment this retry carries.
    const bound = await findIdempotencyBinding(dataSource, keyHash);
    if (bound) {
      if (bound.requestHash !== request.requestHash) throw idempotencyConflict();
      const row = await getAuthorization(dataSource, bound.authorizationId);
      if (row) return proceed(ctx, deps, row, request, work, true);
    }
  }

  let claim: PaymentClaim | Refusal | undefined;
  try {
    claim = await readPaymentClaim(ctx, deps, request);
  } catch (err) {
    // A proof that cannot be read could not be verified: 402 with the requirements and the
    // reason (section 7), as x402 servers answer, never a charge.
    if (!(err instanceof InvalidPaymentHeaderError)) throw err;
    return paymentRequired(ctx, deps, request.charge, 'invalid_payment_header', err.message, { details: err.details });
  }
  if (!claim) return sendQuote(ctx, deps, request.charge);
  if (!claim.ok) return paymentRequired(ctx, deps, request.charge, claim.reason, claim.message);

  const existing = await findAuthorization(dataSource, claim.key);
  if (existing) return resume(ctx, deps, existing, claim, request, work);
  const reservation = await claim.verify();
  if ('ok' in reservation) return paymentRequired(ctx, deps, request.charge, reservation.reason, reservation.message);

  const { created, row } = await reserveAuthorization(dataSource, reservation);
  if (!created) return resume(ctx, deps, row, claim, request, work);
  await deps.evidence.verified(ctx, request.charge.product);
  if (keyHash) {
    const binding = await bindIdempotencyKey(dataSource, keyHash, { requestHash: request.requestHash, authorizationId: row.id });
    if (binding.authorizationId !== row.id) {
      // Another request with this key reserved first: give this authorization back untouched.
      await releaseAuthorization(dataSource, row.id);
      if (binding.requestHash !== request.requestHash) throw idempotencyConflict();
      const first = await getAuthorization(dataSource, binding.authorizationId);
      if (first) return proceed(ctx, deps, first, request, work, true);
    }
  }
  return proceed(ctx, deps, row, request, work, false);
}

// The payment the request carries: x402 v2 (PAYMENT-SIGNATURE), legacy SOL (X-PAYMENT, or
// tx_hash in the body), or none (undefined: answer the quote).
async function readPaymentClaim(ctx: AppContext, deps: AppDeps, request: MethodRequest): Promise<PaymentClaim | Refusal | undefined> {
  const signatureHeader = ctx.get('payment-signature');
  const legacyHeader = ctx.get('x-payment');
  if (signatureHeader && legacyHeader) {
    throw new AppError(400, 'ambiguous_payment', 'Send one payment: PAYMENT-SIGNATURE (x402 v2) or X-PAYMENT (legacy), not both.');
  }
  const input = { payments: deps.config.payments, charge: request.charge, wallet: request.wallet, path: ctx.path, requestHash: request.requestHash };
  if (signatureHeader) return claimExactEvmPayment(signatureHeader, { ...input, facilitator: deps.facilitator });
  if (legacyHeader) return claimLegacySolPayment({ header: legacyHeader }, input);
  const txHash = legacyTxHash(ctx);
  if (txHash !== undefined) return claimLegacySolPayment({ body: { tx_hash: txHash, wallet_address: request.wallet } }, input);
  return undefined;
}

function idempotencyConflict(): AppError {
  return new AppError(409, 'idempotency_conflict', 'This Idempotency-Key was used with a different request; use a new key for a new request.');
}

async function resume(
  ctx: AppContext,
  deps: AppDeps,
  row: AuthorizationRow,
  claim: PaymentClaim,
  request: MethodRequest,
  work: PaidWork,
): Promise<void> {
  if (row.requestHash !== request.requestHash || !claim.sameProof(row)) {
    throw new AppError(409, 'payment_already_used', 'This payment was already used for another request; make a new one.');
  }
  return proceed(ctx, deps, row, request, work, true);
}

async function proceed(
  ctx: AppContext,
  deps: AppDeps,
  row: AuthorizationRow,
  request: MethodRequest,
  work: PaidWork,
  replayed: boolean,
): Promise<void> {
  let current = row;
  if (current.status === 'reserved') {
    let outcome: WorkOutcome;
    try {
      outcome = await runWork(deps, current, work);
    } catch (err) {
      // A request that can never succeed charges nothing and frees the authorization; a 503 or
      // 504 keeps it reserved, so the same authorization resumes the same job.
      if (err instanceof AppError && err.status < 500) await releaseAuthorization(deps.dataSource, current.id);
      throw err;
    }
    current = await storeResult(deps.dataSource, current.id, outcome);
    await deps.evidence.invoked(ctx, request.charge.product);
  }
  if (current.status === 'scored') {
    const settled = await settle(ctx, deps, current);
    deps.metrics.settlement('pending' in settled ? 'pending' : settled.success ? 'settled' : 'failed');
    if (!('pending' in settled)) await deps.evidence.settled(ctx, request.charge.product, settled.success);
    // Not known yet whether money moved: never "nothing was charged"; the authorization stays replayable.
    if ('pending' in settled) throw settlementPendingError(settled.retryAfterSeconds, { result_id: current.resultId });
    if (!settled.success) {
      setReceipt(ctx, { success: false, errorReason: settled.errorReason, transaction: '', network: settled.network as SettleResponse['network'], payer: displayPayer(current.payer) });
      return paymentRequired(
        ctx,
        deps,
        request.charge,
        'settlement_failed',
        settled.errorReason === 'authorization_expired'
          ? 'The authorization expired before it could settle; nothing was charged. The result is withheld; sign a new payment to buy it.'
          : `Settlement was refused (${settled.errorReason}), which proves nothing moved; nothing was charged. The result is withheld; fix the cause and retry with the same authorization and request, or sign a new payment.`,
      );
    }
    return deliver(ctx, deps, current, request, settled.transaction, { first: !replayed });
  }
  return deliver(ctx, deps, current, request, current.transaction ?? '', { first: false });
}

// Payers are stored lowercase (the uniqueness key); receipts show EVM addresses checksummed.
function displayPayer(payer: string): string {
  return /^0x[0-9a-f]{40}$/.test(payer) ? getAddress(payer) : payer;
}

async function settle(ctx: AppContext, deps: AppDeps, row: AuthorizationRow): Promise<SettlePaymentResult> {
  const { config } = deps;
  const job = await enqueueSettlePayment(
    deps.settlementQueue,
    { authorizationId: row.id, reqId: ctx.state.reqId },
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

// The work under this payment; every per-call response carries the payer's referral code.
async function runWork(deps: AppDeps, row: AuthorizationRow, work: PaidWork): Promise<WorkOutcome> {
  const [outcome, referralCode] = await Promise.all([
    work({ resultId: row.resultId, payer: row.payer, authorizationId: row.id, jobIdentity: { kind: 'payment', authorization: row.id }, method: 'x402' }),
    referralCodeFor(deps.dataSource, row.payer),
  ]);
  // Reward tokens are minted at the first delivery and never stored (see reward-delivery).
  return { ...outcome, response: { ...outcome.response, referral_code: referralCode, reward_bundle_tokens: [] } };
}

async function deliver(ctx: AppContext, deps: AppDeps, row: AuthorizationRow, request: MethodRequest, transaction: string, delivery: Delivery): Promise<void> {
  const extras: Record<string, unknown> = {};
  // The product's own extras first (a bundle token must reach its buyer even if rewards fail),
  // then the referral rewards due to the payer, which every paid response delivers (section 8).
  const sources: DeliveryExtras[] = [...(request.onDelivery ? [request.onDelivery] : []), (r, d) => rewardDeliveryExtras(deps.dataSource, r, d)];
  for (const source of sources) {
    try {
      Object.assign(extras, await source(row, delivery));
    } catch (err) {
      // The payment is settled: deliver the stored body (it says how to recover what is missing).
      ctx.state.log.error({ err, first: delivery.first }, 'delivery extras failed');
    }
  }
  setReceipt(ctx, { success: true, transaction, network: row.network as SettleResponse['network'], payer: displayPayer(row.payer) });
  await deps.evidence.delivered(ctx, request.charge.product, { key: `x402/${row.id}`, payer: row.payer });
  if (!delivery.first) ctx.set(REPLAY_HEADER, 'true');
  ctx.status = 200;
  ctx.body = { ...(row.response ?? {}), ...extras, payment: { network: row.network, asset: row.asset, amount: row.amount, transaction } };
}
