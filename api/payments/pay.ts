import type { PaymentMethodId } from '../../shared/products';
import { databaseUnavailableError, isDatabaseUnavailable } from '../../shared/db/db-errors';
import { AppError, ValidationError } from '../../shared/errors';
import type { AppContext } from '../http/context';
import type { AppDeps } from '../http/deps';
import { PROOF_CARD_VIA } from '../http/payment-evidence';
import { BUNDLE_TOKEN_HEADER } from './bundle-credit/bundle-token';
import { resourceUrlFor } from './challenge';
import { MAX_IDEMPOTENCY_KEY_CHARS } from './idempotency';
import { carriesBundleToken, payWithBundleCredit } from './methods/bundle-credit.method';
import { carriesX402Payment, payPerCall } from './methods/x402.method';
import type { PaidCall } from './paid-product';
import type { MethodRequest, PaidRequest, PaidWork } from './paid-work';
import type { PaymentExchange, PaymentProofs, PayOutcome } from './payment-exchange';
import { quoteOutcome, sendPayOutcome } from './quote';

/** One way to pay: how to see it on a call, and how to run a paid call with it. */
interface PaymentMethod {
  id: PaymentMethodId;
  /** What the caller sends, for error messages. */
  proof: string;
  carriedBy(proofs: PaymentProofs): boolean;
  run(exchange: PaymentExchange, deps: AppDeps, request: MethodRequest, work: PaidWork): Promise<PayOutcome>;
}

// Every payment method the service takes. A new one (card-pack credits, company tokens) is one
// more entry here, never a branch in a route.
const METHODS: readonly PaymentMethod[] = [
  { id: 'bundle-credit', proof: BUNDLE_TOKEN_HEADER, carriedBy: carriesBundleToken, run: payWithBundleCredit },
  { id: 'x402', proof: 'a payment (PAYMENT-SIGNATURE, X-PAYMENT or tx_hash)', carriedBy: carriesX402Payment, run: payPerCall },
];

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
  const signature = ctx.get('payment-signature');
  const body = ctx.state.body as { tx_hash?: unknown } | undefined;
  return {
    resource: { url: resourceUrlFor(deps.config.payments, ctx), key: ctx.path },
    proofs: {
      x402: signature ? { source: 'PAYMENT-SIGNATURE', value: signature } : undefined,
      legacyHeader: ctx.get('x-payment') || undefined,
      txHash: body?.tx_hash,
      bundleToken: ctx.get(BUNDLE_TOKEN_HEADER) || undefined,
    },
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
  const carried = METHODS.filter((m) => m.carriedBy(exchange.proofs));
  if (carried.length > 1) {
    throw new AppError(400, 'ambiguous_payment', `Send one way to pay: ${carried.map((m) => m.proof).join(' or ')}, not several.`);
  }
  const method = carried[0];
  if (!method) {
    await deps.evidence.challenged(exchange, product);
    return withNonFinalNote(quoteOutcome(deps, request.charge, exchange.resource), request);
  }
  if (request.wallet === undefined) {
    throw new ValidationError([{ path: '/wallet_address', rule: 'required', message: 'is required to pay: it must be the payment signer' }]);
  }
  if (!request.charge.methods.includes(method.id)) throw methodNotAccepted(method, request);
  if (method.id === 'x402') await deps.evidence.retried(exchange, product);
  let outcome: PayOutcome;
  try {
    outcome = await method.run(exchange, deps, { ...request, wallet: request.wallet, idempotencyKey }, work);
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

function methodNotAccepted(method: PaymentMethod, request: PaidRequest): AppError {
  const { charge } = request;
  const what = charge.tier ? `${charge.product} ${charge.tier}` : charge.product;
  if (method.id === 'bundle-credit') {
    // Bundle credits are basic-score credits (section 8), whatever the product.
    return new AppError(422, 'bundle_basic_only', `${BUNDLE_TOKEN_HEADER} pays for basic sessions only, not ${what}; pay per call instead (nothing was spent).`, {
      details: { fields: [{ path: charge.tier ? '/tier' : `header:${BUNDLE_TOKEN_HEADER}`, rule: 'bundle_basic_only', message: 'a bundle token pays for basic sessions only' }] },
    });
  }
  return new AppError(422, 'payment_method_not_accepted', `${what} cannot be paid with ${method.proof}.`);
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
