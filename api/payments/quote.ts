import { encodePaymentResponseHeader } from '@x402/core/http';
import type { SettleResponse } from '@x402/core/types';
import type { AppContext } from '../http/context';
import type { AppDeps } from '../http/deps';
import { buildChallenge, resourceUrlFor } from './challenge';
import type { Charge } from './charge';

/** Response header set on an answer that replays an earlier delivery of the same payment. */
export const REPLAY_HEADER = 'X-Payment-Replayed';

/**
 * Answers 402 with the challenge of a charge: the x402 body and the PAYMENT-REQUIRED header.
 * @param ctx - Koa context
 * @param deps - app dependencies
 * @param charge - what the request costs
 * @param error - why payment is required (or why the payment was refused)
 * @param message - one human sentence for the body
 * @param extra - more members for the body (e.g. what a refused header got wrong)
 */
export function paymentRequired(ctx: AppContext, deps: AppDeps, charge: Charge, error: string, message?: string, extra: Record<string, unknown> = {}): void {
  const challenge = buildChallenge(deps.config.payments, charge, resourceUrlFor(deps.config.payments, ctx), error, deps.challengeExtensions?.get(charge.product));
  if (error !== 'payment_required') deps.metrics.paymentRefused(error);
  ctx.status = 402;
  ctx.set('PAYMENT-REQUIRED', challenge.header);
  ctx.body = { ...challenge.body, ...(message ? { message } : {}), ...extra };
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
 * Sets the settlement receipt: PAYMENT-RESPONSE (x402 v2) and its legacy alias X-PAYMENT-RESPONSE
 * (interface description section 2).
 * @param ctx - Koa context
 * @param receipt - the settlement outcome
 */
export function setReceipt(ctx: AppContext, receipt: SettleResponse): void {
  const encoded = encodePaymentResponseHeader(receipt);
  ctx.set('PAYMENT-RESPONSE', encoded);
  ctx.set('X-PAYMENT-RESPONSE', encoded);
}
