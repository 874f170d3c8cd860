import { encodePaymentResponseHeader } from '@x402/core/http';
import type { SettleResponse } from '@x402/core/types';
import { getAddress } from 'viem';
import { awaitResult, enqueueSettlePayment, type SettlePaymentResult } from '../../jobs';
import { AppError, JobTimeoutError } from '../../shared/errors';
import { SETTLE_RETRY_AFTER_SECONDS, settlementPendingError } from '../../shared/payments/settlement-outcome';
import {
  findAuthorization,
  getAuthorization,
  releaseAuthorization,
  reserveAuthorization,
  storeResult,
  type AuthorizationRow,
  type SessionSummary,
} from '../../shared/payments/authorization-store';
import type { AppContext } from '../context';
import type { AppDeps } from '../deps';
import { buildChallenge, resourceUrlFor } from './challenge';
import type { Charge } from './charge';
import { bindIdempotencyKey, findIdempotencyBinding, idempotencyKeyHash } from './idempotency';
import { claimExactEvmPayment } from './rails/exact-evm-rail';
import { claimLegacySolPayment } from './rails/legacy-sol-rail';
import type { PaymentClaim, Refusal } from './rails/rail';

/** A paid request, as the route sees it after validation. */
export interface PaidRequest {
  charge: Charge;
  /** The body's `wallet_address`: must be the payment's signer. */
  wallet: string;
  /** Hash of the canonical request: the same authorization with another request is a 409. */
  requestHash: string;
  /** The Idempotency-Key header, on routes that honour it. */
  idempotencyKey?: string;
  /** The body's legacy payment fields (`tx_hash` with `wallet_address`), on routes that take them. */
  legacyBody?: { tx_hash?: unknown; wallet_address?: unknown };
  /** Fields to add to each delivered body without storing them; see {@link DeliveryExtras}. */
  onDelivery?: DeliveryExtras;
}

/** How a 200 is being delivered: `first` only in the request that made the reservation, right after its settlement. */
export interface Delivery {
  first: boolean;
}

/**
 * Adds fields to a delivered body that are never stored with the response. Called after the
 * settlement succeeded, on every 200 (first delivery and replays). After settlement the signed
 * authorization is public on chain, so anyone can rebuild the payment header and replay the
 * request: a bearer secret (a bundle token) is minted only when `delivery.first` is true, and a
 * replay gets only what is safe to show anyone. A throw is logged and the stored body is delivered.
 */
export type DeliveryExtras = (authorization: AuthorizationRow, delivery: Delivery) => Promise<Record<string, unknown>>;

/** What the paid work hands back: the response body, stored for replays, and the ledger summary. */
export interface WorkOutcome {
  response: Record<string, unknown>;
  summary: SessionSummary;
  /** The text to keep for calibration review, or null. */
  calibrationText: string | null;
}

/** The work a payment buys; it gets the reserved authorization (its id names the job, its result id the result). */
export type PaidWork = (authorization: AuthorizationRow) => Promise<WorkOutcome>;

/** Response header set on an answer that replays an earlier delivery of the same payment. */
export const REPLAY_HEADER = 'X-Payment-Replayed';

/**
 * Answers 402 with the challenge of a charge: the x402 body and the PAYMENT-REQUIRED header.
 * @param ctx - Koa context
 * @param deps - app dependencies
 * @param charge - what the request costs
 * @param error - why payment is required (or why the payment was refused)
 * @param message - one human sentence for the body
 */
export function paymentRequired(ctx: AppContext, deps: AppDeps, charge: Charge, error: string, message?: string): void {
  const challenge = buildChallenge(deps.config.payments, charge, resourceUrlFor(deps.config.payments, ctx), error);
  ctx.status = 402;
  ctx.set('PAYMENT-REQUIRED', challenge.header);
  ctx.body = message ? { ...challenge.body, message } : challenge.body;
}

function setReceipt(ctx: AppContext, receipt: SettleResponse): void {
  const encoded = encodePaymentResponseHeader(receipt);
  // PAYMENT-RESPONSE is the v2 name; X-PAYMENT-RESPONSE its legacy alias (interface description §2).
  ctx.set('PAYMENT-RESPONSE', encoded);
  ctx.set('X-PAYMENT-RESPONSE', encoded);
}

/**
 * Answers the 402 challenge of a charge: the quote of a GET on a paid path, or of a POST sent
 * without payment. Never settles anything.
 * @param ctx - Koa context
 * @param deps - app dependencies
 * @param charge - what the request would cost
 */
export function sendQuote(ctx: AppContext, deps: AppDeps, charge: Charge): void {
  paymentRequired(ctx, deps, charge, 'payment_required', 'Sign the first entry of accepts (EIP-3009) and retry the same request once with PAYMENT-SIGNATURE.');
}

/**
 * Runs a paid request end to end: payment verified (signature, signer == wallet_address, exact
 * amount, payTo, asset, network, time window, resource, then the facilitator), the authorization
 * reserved in PostgreSQL before any work, the work, the response stored, settlement through the
 * `settlement` queue, then the answer with its receipt. The same authorization with the same
 * request resumes or replays (never a second charge); with another request it is a 409.
 * @param ctx - Koa context; the answer is set on it
 * @param deps - app dependencies
 * @param request - charge, wallet, request hash, idempotency key
 * @param work - the paid work
 */
export async function runPaidCall(ctx: AppContext, deps: AppDeps, request: PaidRequest, work: PaidWork): Promise<void> {
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

  const claim = await readPaymentClaim(ctx, deps, request);
  if (!claim) return sendQuote(ctx, deps, request.charge);
  if (!claim.ok) return paymentRequired(ctx, deps, request.charge, claim.reason, claim.message);

  const existing = await findAuthorization(dataSource, claim.key);
  if (existing) return resume(ctx, deps, existing, claim, request, work);
  const reservation = await claim.verify();
  if ('ok' in reservation) return paymentRequired(ctx, deps, request.charge, reservation.reason, reservation.message);

  const { created, row } = await reserveAuthorization(dataSource, reservation);
  if (!created) return resume(ctx, deps, row, claim, request, work);
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
async function readPaymentClaim(ctx: AppContext, deps: AppDeps, request: PaidRequest): Promise<PaymentClaim | Refusal | undefined> {
  const signatureHeader = ctx.get('payment-signature');
  const legacyHeader = ctx.get('x-payment');
  if (signatureHeader && legacyHeader) {
    throw new AppError(400, 'ambiguous_payment', 'Send one payment: PAYMENT-SIGNATURE (x402 v2) or X-PAYMENT (legacy), not both.');
  }
  const input = { payments: deps.config.payments, charge: request.charge, wallet: request.wallet, path: ctx.path, requestHash: request.requestHash };
  if (signatureHeader) return claimExactEvmPayment(signatureHeader, { ...input, facilitator: deps.facilitator });
  if (legacyHeader) return claimLegacySolPayment({ header: legacyHeader }, input);
  if (request.legacyBody?.tx_hash !== undefined) return claimLegacySolPayment({ body: request.legacyBody }, input);
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
  request: PaidRequest,
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
  request: PaidRequest,
  work: PaidWork,
  replayed: boolean,
): Promise<void> {
  let current = row;
  if (current.status === 'reserved') {
    let outcome: WorkOutcome;
    try {
      outcome = await work(current);
    } catch (err) {
      // A request that can never succeed charges nothing and frees the authorization; a 503 or
      // 504 keeps it reserved, so the same authorization resumes the same job.
      if (err instanceof AppError && err.status < 500) await releaseAuthorization(deps.dataSource, current.id);
      throw err;
    }
    current = await storeResult(deps.dataSource, current.id, outcome);
  }
  if (current.status === 'scored') {
    const settled = await settle(ctx, deps, current);
    // Not known yet whether money moved: never "nothing was charged"; the authorization stays replayable.
    if ('pending' in settled) throw settlementPendingError(settled.retryAfterSeconds, { result_id: current.resultId });
    if (!settled.success) {
      setReceipt(ctx, { success: false, errorReason: settled.errorReason, transaction: '', network: settled.network as SettleResponse['network'], payer: displayPayer(current.payer) });
      return paymentRequired(
        ctx,
        deps,
        request.charge,
        'settlement_failed',
        `Settlement failed (${settled.errorReason}); nothing was charged. The result is withheld; retry with the same authorization and request.`,
      );
    }
    return deliver(ctx, current, request, settled.transaction, { first: !replayed });
  }
  return deliver(ctx, current, request, current.transaction ?? '', { first: false });
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

async function deliver(ctx: AppContext, row: AuthorizationRow, request: PaidRequest, transaction: string, delivery: Delivery): Promise<void> {
  let extras: Record<string, unknown> = {};
  if (request.onDelivery) {
    try {
      extras = await request.onDelivery(row, delivery);
    } catch (err) {
      // The payment is settled: deliver the stored body (it says how to recover what is missing).
      ctx.state.log.error({ err, first: delivery.first }, 'delivery extras failed');
    }
  }
  setReceipt(ctx, { success: true, transaction, network: row.network as SettleResponse['network'], payer: displayPayer(row.payer) });
  if (!delivery.first) ctx.set(REPLAY_HEADER, 'true');
  ctx.status = 200;
  ctx.body = { ...(row.response ?? {}), ...extras, payment: { network: row.network, asset: row.asset, amount: row.amount, transaction } };
}
