import { encodePaymentResponseHeader } from '@x402/core/http';
import type { SettleResponse } from '@x402/core/types';
import type { AppContext } from '../http/context';
import type { AppDeps } from '../http/deps';
import { buildChallenge, resourceUrlFor } from './challenge';
import type { Charge } from './charge';
import type { PaidResource, PayOutcome } from './payment-exchange';

/** Response header set on an answer that replays an earlier delivery of the same payment. */
export const REPLAY_HEADER = 'X-Payment-Replayed';

/** The message of a plain quote: how to pay. */
const HOW_TO_PAY = 'Sign the first entry of accepts (EIP-3009) and retry the same request once with PAYMENT-SIGNATURE.';

/**
 * The challenge of a charge as an outcome, whatever the transport: the x402 body and the
 * PAYMENT-REQUIRED header value. A refusal (any error but `payment_required`) is counted. An HTTP
 * resource's challenge declares the product's x402 extensions (the Bazaar discovery extension).
 * @param deps - app dependencies
 * @param charge - what the call costs
 * @param resource - the paid resource (its URL goes in `resource.url`)
 * @param error - why payment is required (or why the payment was refused)
 * @param message - one human sentence for the body
 * @param extra - more members for the body (e.g. what a refused header got wrong)
 * @returns the outcome
 */
export function paymentRequiredOutcome(
  deps: AppDeps,
  charge: Charge,
  resource: Pick<PaidResource, 'url'>,
  error: string,
  message?: string,
  extra: Record<string, unknown> = {},
): Extract<PayOutcome, { kind: 'payment-required' }> {
  // The Bazaar discovery extension describes the HTTP endpoint; an MCP tool's challenge has none.
  const extensions = /^https?:/.test(resource.url) ? deps.challengeExtensions?.get(charge.product) : undefined;
  const challenge = buildChallenge(deps.config.payments, charge, resource.url, error, extensions);
  if (error !== 'payment_required') deps.metrics.paymentRefused(error);
  return { kind: 'payment-required', challenge: { header: challenge.header, body: { ...challenge.body, ...(message ? { message } : {}), ...extra } } };
}

/**
 * The quote of a charge as an outcome: the challenge a call without payment gets.
 * @param deps - app dependencies
 * @param charge - what the call would cost
 * @param resource - the paid resource
 * @param message - how to pay over this transport
 * @returns the outcome
 */
export function quoteOutcome(deps: AppDeps, charge: Charge, resource: Pick<PaidResource, 'url'>, message = HOW_TO_PAY): Extract<PayOutcome, { kind: 'payment-required' }> {
  return paymentRequiredOutcome(deps, charge, resource, 'payment_required', message);
}

/**
 * Answers the 402 challenge of a charge: the quote of a GET on a paid path, or of a POST sent
 * without payment. Never settles anything.
 * @param ctx - Koa context
 * @param deps - app dependencies
 * @param charge - what the request would cost
 */
export function sendQuote(ctx: AppContext, deps: AppDeps, charge: Charge): void {
  sendPayOutcome(ctx, quoteOutcome(deps, charge, { url: resourceUrlFor(deps.config.payments, ctx) }));
}

/**
 * The HTTP form of a pipeline outcome: 402 with the challenge (body and PAYMENT-REQUIRED), or 200
 * with the delivery; the settlement receipt and the replay marker as headers.
 * @param ctx - Koa context
 * @param outcome - what the pipeline answered
 */
export function sendPayOutcome(ctx: AppContext, outcome: PayOutcome): void {
  if (outcome.receipt) setReceipt(ctx, outcome.receipt);
  if (outcome.kind === 'payment-required') {
    ctx.status = 402;
    ctx.set('PAYMENT-REQUIRED', outcome.challenge.header);
    ctx.body = outcome.challenge.body;
    return;
  }
  if (outcome.replayed) ctx.set(REPLAY_HEADER, 'true');
  ctx.status = 200;
  ctx.body = outcome.body;
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
