import { databaseUnavailableError, isDatabaseUnavailable } from '../../shared/db/db-errors';
import { AppError, ValidationError } from '../../shared/errors';
import type { AppContext } from '../http/context';
import type { AppDeps } from '../http/deps';
import { PROOF_CARD_VIA } from '../http/payment-evidence';
import { resourceUrlFor } from './challenge';
import { MAX_IDEMPOTENCY_KEY_CHARS } from './idempotency';
import { PAYMENT_METHODS, type PaymentMethod } from './methods';
import type { PaidCall } from './paid-product';
import type { PaidRequest, PaidWork } from './paid-work';
import type { PaymentExchange, PayOutcome } from './payment-exchange';
import { quoteOutcome, sendPayOutcome } from './quote';

/**
 * The one payment pipeline every paid route calls: validate, build the charge, `pay`, present.
 * This is its HTTP adapter: it reads the call's payment from the request (x402 v2
 * PAYMENT-SIGNATURE, legacy X-PAYMENT or tx_hash, X-BUNDLE-TOKEN, Idempotency-Key), runs
 * {@link payFor}, and answers its outcome: 402 with the challenge, or 200 with the receipts.
 * @param ctx - Koa context, after validation; the answer is set on it
 * @param deps - app dependencies
 * @param request - the charge, the paying wallet, the request hash
 * @param work - what the payment buys
 * @throws what {@link payFor} throws; a 402 is answered, not thrown
 */
export async function pay(ctx: AppContext, deps: AppDeps, request: PaidRequest, work: PaidWork): Promise<void> {
  sendPayOutcome(ctx, await payFor(httpExchange(ctx, deps), deps, request, work));
}

/**
 * How an HTTP request pays: its headers, the body's legacy `tx_hash`, its path as the resource.
 * @param ctx - Koa context, after validation
 * @param deps - app dependencies
 * @returns the exchange
 */
export function httpExchange(ctx: AppContext, deps: AppDeps): PaymentExchange {
  const body = ctx.state.body as Record<string, unknown> | undefined;
  return {
    resource: { url: resourceUrlFor(deps.config.payments, ctx), key: ctx.path },
    proofs: { header: (name) => ctx.get(name) || undefined, meta: () => undefined, body },
    idempotencyKey: ctx.get('idempotency-key') || undefined,
    reqId: ctx.state.reqId,
    log: ctx.state.log,
    canary: ctx.state.canary === true,
    viaProofCard: ctx.query[PROOF_CARD_VIA.param] === PROOF_CARD_VIA.value,
  };
}

/**
 * The transport-neutral core of the payment pipeline (HTTP and MCP both run it). It reads how the
 * call pays (an x402 v2 payment, legacy X-PAYMENT or tx_hash, or a bundle token where the charge
 * accepts it), answers the quote when nothing is sent, and runs the method: reservation, replay
 * and 409, the work, settlement, receipts, the ledger row, the live feed, referral accrual and
 * reward delivery, Idempotency-Key where the product honours it. Each step reports its proof-card
 * evidence event to `deps.evidence` as it happens, so both transports count the same.
 * @param exchange - the call: resource, proofs, idempotency key, request id and logger
 * @param deps - app dependencies
 * @param request - the charge, the paying wallet, the request hash
 * @param work - what the payment buys
 * @returns the challenge (quote or refusal) or the delivery
 * @throws AppError 400 ambiguous_payment (two ways to pay), 422 bundle_basic_only (a bundle token
 *   where the charge takes none), 422 validation_failed (an Idempotency-Key too long), and what the
 *   method throws
 */
export async function payFor(exchange: PaymentExchange, deps: AppDeps, request: PaidRequest, work: PaidWork): Promise<PayOutcome> {
  try {
    return await payForCall(exchange, deps, request, work);
  } finally {
    // The call's evidence is written once, whatever the outcome (see PaymentEvidence).
    await deps.evidence.flush(exchange);
  }
}

async function payForCall(exchange: PaymentExchange, deps: AppDeps, request: PaidRequest, work: PaidWork): Promise<PayOutcome> {
  const { product } = request.charge;
  await deps.evidence.began(exchange, product);
  const idempotencyKey = readIdempotencyKey(exchange, request);
  const carried = paymentMethodsOf(deps).flatMap((method) => {
    const proof = method.read(exchange.proofs);
    return proof === undefined ? [] : [{ method, proof }];
  });
  if (carried.length > 1) {
    throw new AppError(400, 'ambiguous_payment', `Send one way to pay: ${carried.map((c) => c.method.proof).join(' or ')}, not several.`);
  }
  if (carried.length === 0) {
    await deps.evidence.challenged(exchange, product);
    return withNonFinalNote(quoteOutcome(deps, request.charge, exchange.resource), request);
  }
  if (request.wallet === undefined) {
    throw new ValidationError([{ path: '/wallet_address', rule: 'required', message: 'is required to pay: it must be the payment signer' }]);
  }
  const { method, proof } = carried[0]!;
  if (!method.accepts(request.charge)) throw notAccepted(method, request);
  let outcome: PayOutcome;
  try {
    outcome = await method.run(proof, exchange, deps, { ...request, wallet: request.wallet, idempotencyKey }, work);
  } catch (err) {
    if (!request.nonFinalNote) throw err;
    const known = err instanceof AppError ? err : isDatabaseUnavailable(err) ? databaseUnavailableError(err) : undefined;
    throw known ? withNote(known, request.nonFinalNote) : err;
  }
  return withNonFinalNote(outcome, request);
}

// Every answer but the delivery says how the product's deliverable will be obtained.
function withNonFinalNote(outcome: PayOutcome, request: PaidRequest): PayOutcome {
  if (!request.nonFinalNote || outcome.kind !== 'payment-required') return outcome;
  return { ...outcome, challenge: { ...outcome.challenge, body: { ...outcome.challenge.body, ...request.nonFinalNote } } };
}

function withNote(err: AppError, note: Record<string, unknown>): AppError {
  return new AppError(err.status, err.code, err.message, {
    details: err.details,
    extra: { ...err.extra, ...note },
    headers: err.headers,
    cause: err,
    expose: err.expose,
  });
}

function readIdempotencyKey(exchange: PaymentExchange, request: PaidRequest): string | undefined {
  if (!request.charge.idempotencyKey) return undefined;
  const key = exchange.idempotencyKey;
  if (key !== undefined && key.length > MAX_IDEMPOTENCY_KEY_CHARS) {
    throw new ValidationError([{ path: 'header:Idempotency-Key', rule: 'maxLength', message: `must be at most ${MAX_IDEMPOTENCY_KEY_CHARS} characters` }]);
  }
  return key;
}

function notAccepted(method: PaymentMethod, request: PaidRequest): AppError {
  const { charge } = request;
  if (method.notAccepted) return method.notAccepted(charge);
  const what = charge.tier ? `${charge.product} ${charge.tier}` : charge.product;
  return new AppError(422, 'payment_method_not_accepted', `${what} cannot be paid with ${method.proof}; nothing was spent.`);
}

/**
 * Whether an HTTP request carries a way to pay (any method's proof), for a route that must decide
 * before the pipeline runs (a paid quote answers its status to a call without one).
 * @param ctx - Koa context, after validation
 * @param deps - app dependencies
 * @returns true when some payment method reads a proof from the request
 */
export function carriesPayment(ctx: AppContext, deps: AppDeps): boolean {
  const { proofs } = httpExchange(ctx, deps);
  return paymentMethodsOf(deps).some((method) => method.read(proofs) !== undefined);
}

/**
 * The payment methods this process takes: `PAYMENT_METHODS`, or the list a test's dependencies name.
 * @param deps - app dependencies
 * @returns the methods
 */
export function paymentMethodsOf(deps: Pick<AppDeps, 'paymentMethods'>): readonly PaymentMethod[] {
  return deps.paymentMethods ?? PAYMENT_METHODS;
}

/**
 * The call of an HTTP request, as a paid product's `prepare` takes it.
 * @param ctx - Koa context
 * @param deps - app dependencies (the configured public origin)
 * @returns request id, logger, header reader, the x402 payment, public URLs
 */
export function paidCallOf(ctx: AppContext, deps: AppDeps): PaidCall {
  return {
    reqId: ctx.state.reqId,
    log: ctx.state.log,
    header: (name) => ctx.get(name),
    x402Payment: ctx.get('payment-signature') || undefined,
    publicUrl: (path) => resourceUrlFor(deps.config.payments, { protocol: ctx.protocol, host: ctx.host, path }),
  };
}
