import type { PaymentMethodId } from '../../shared/products';
import { databaseUnavailableError, isDatabaseUnavailable } from '../../shared/db/db-errors';
import { AppError, ValidationError } from '../../shared/errors';
import type { AppContext } from '../http/context';
import type { AppDeps } from '../http/deps';
import { BUNDLE_TOKEN_HEADER } from './bundle-credit/bundle-token';
import { MAX_IDEMPOTENCY_KEY_CHARS } from './idempotency';
import { carriesBundleToken, payWithBundleCredit } from './methods/bundle-credit.method';
import { carriesX402Payment, payPerCall } from './methods/x402.method';
import type { MethodRequest, PaidRequest, PaidWork } from './paid-work';
import { sendQuote } from './quote';

/** One way to pay: how to see it on a request, and how to run a paid request with it. */
interface PaymentMethod {
  id: PaymentMethodId;
  /** What the caller sends, for error messages. */
  proof: string;
  carriedBy(ctx: AppContext): boolean;
  run(ctx: AppContext, deps: AppDeps, request: MethodRequest, work: PaidWork): Promise<void>;
}

// Every payment method the service takes. A new one (card-pack credits, company tokens) is one
// more entry here, never a branch in a route.
const METHODS: readonly PaymentMethod[] = [
  { id: 'bundle-credit', proof: BUNDLE_TOKEN_HEADER, carriedBy: carriesBundleToken, run: payWithBundleCredit },
  { id: 'x402', proof: 'a payment (PAYMENT-SIGNATURE, X-PAYMENT or tx_hash)', carriedBy: carriesX402Payment, run: payPerCall },
];

/**
 * The one payment pipeline every paid route calls: validate, build the charge, `pay`, present.
 * It reads how the request pays (x402 v2 PAYMENT-SIGNATURE, legacy X-PAYMENT or tx_hash, or
 * X-BUNDLE-TOKEN where the charge accepts it), answers the 402 quote when nothing is sent, and
 * runs the method: reservation, replay and 409, the work, settlement, receipts, the ledger row,
 * the live feed, referral accrual and reward delivery, Idempotency-Key where the product honours it.
 * Each step reports its proof-card evidence event to `deps.evidence` as it happens.
 * @param ctx - Koa context, after validation; the answer is set on it
 * @param deps - app dependencies
 * @param request - the charge, the paying wallet, the request hash
 * @param work - what the payment buys
 * @throws AppError 400 ambiguous_payment (two ways to pay), 422 bundle_basic_only (a bundle token
 *   where the charge takes none), 422 validation_failed (an Idempotency-Key too long), and what the
 *   method throws; a 402 is answered, not thrown
 */
export async function pay(ctx: AppContext, deps: AppDeps, request: PaidRequest, work: PaidWork): Promise<void> {
  const { product } = request.charge;
  await deps.evidence.began(ctx, product);
  const idempotencyKey = readIdempotencyKey(ctx, request);
  const carried = METHODS.filter((m) => m.carriedBy(ctx));
  if (carried.length > 1) {
    throw new AppError(400, 'ambiguous_payment', `Send one way to pay: ${carried.map((m) => m.proof).join(' or ')}, not several.`);
  }
  const method = carried[0];
  if (!method) {
    sendQuote(ctx, deps, request.charge);
    if (request.nonFinalNote) ctx.body = { ...(ctx.body as object), ...request.nonFinalNote };
    await deps.evidence.challenged(ctx, product);
    return;
  }
  if (request.wallet === undefined) {
    throw new ValidationError([{ path: '/wallet_address', rule: 'required', message: 'is required to pay: it must be the payment signer' }]);
  }
  if (!request.charge.methods.includes(method.id)) throw methodNotAccepted(method, request);
  if (method.id === 'x402') await deps.evidence.retried(ctx, product);
  try {
    await method.run(ctx, deps, { ...request, wallet: request.wallet, idempotencyKey }, work);
  } catch (err) {
    if (!request.nonFinalNote) throw err;
    const known = err instanceof AppError ? err : isDatabaseUnavailable(err) ? databaseUnavailableError(err) : undefined;
    throw known ? withNote(known, request.nonFinalNote) : err;
  }
  if (request.nonFinalNote && ctx.status !== 200 && ctx.body && typeof ctx.body === 'object') ctx.body = { ...ctx.body, ...request.nonFinalNote };
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

function readIdempotencyKey(ctx: AppContext, request: PaidRequest): string | undefined {
  if (!request.charge.idempotencyKey) return undefined;
  const key = ctx.get('idempotency-key') || undefined;
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
