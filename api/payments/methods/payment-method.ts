import type { AppError } from '../../../shared/errors';
import { ledgerTier } from '../../../shared/products';
import type { AppDeps } from '../../http/deps';
import type { Charge } from '../charge';
import type { MethodRequest, PaidWork } from '../paid-work';
import type { CallProofs, PaymentExchange, PayOutcome } from '../payment-exchange';

/** A request header a method reads, as the OpenAPI document, CORS and the logs need to know it. */
export interface MethodHeader {
  name: string;
  /** For the OpenAPI document. */
  description: string;
  /** A bearer secret or a signature: redacted wherever a logger could meet it. */
  secret: boolean;
}

/**
 * One way to pay. It carries everything about itself, so a new method is one file and one line in
 * `PAYMENT_METHODS`: how its proof is read from either transport, the headers it reads and answers
 * (OpenAPI, CORS, log redaction), what it accepts, its refusal where it is not accepted, its step
 * on the proof cards, and how it runs a paid call.
 * @typeParam P - the proof it reads from a call
 */
export interface PaymentMethod<P = unknown> {
  /** Stable id, stored with the work it paid for (`PaidWorkContext.method`). */
  id: string;
  /** What the caller sends, in one phrase, for error messages ("X-BUNDLE-TOKEN"). */
  proof: string;
  /** The request headers it reads. */
  headers: readonly MethodHeader[];
  /** Response headers a browser may read after paying this way. */
  exposedHeaders?: readonly string[];
  /** The MCP `_meta` keys it reads, for the tool descriptions. */
  metaKeys?: readonly string[];
  /**
   * The proof this call carries for this method.
   * @param proofs - the call's headers, `_meta` and body
   * @returns the proof, or undefined when the call does not pay this way
   */
  read(proofs: CallProofs): P | undefined;
  /**
   * Whether a charge may be paid this way.
   * @param charge - the product, tier and price
   */
  accepts(charge: Pick<Charge, 'product' | 'tier'>): boolean;
  /**
   * The refusal when a call pays this way for a charge it does not accept (nothing was spent).
   * @param charge - the charge refused
   */
  notAccepted?(charge: Pick<Charge, 'product' | 'tier'>): AppError;
  /** A step the proof cards add to a product's payment flow when this method pays for it. */
  cardStep?: { action: string; detail: string };
  /**
   * Runs a paid call with this proof: from reservation to delivery or challenge.
   * @param proof - what `read` returned
   * @param exchange - the call
   * @param deps - app dependencies
   * @param request - charge, wallet, request hash, idempotency key
   * @param work - what the payment buys
   */
  run(proof: P, exchange: PaymentExchange, deps: AppDeps, request: MethodRequest, work: PaidWork): Promise<PayOutcome>;
}

/**
 * Whether a method pays for at least one tier of a product.
 * @param method - the method
 * @param product - the catalog id and its tier keys
 * @returns true when some tier accepts it
 */
export function paysForProduct(method: PaymentMethod, product: { id: string; tiers: Record<string, unknown> }): boolean {
  return Object.keys(product.tiers).some((tier) => method.accepts({ product: product.id, tier: ledgerTier(tier) }));
}

// The pipeline reads the methods from the dependencies, which the HTTP kit below it defines without
// knowing payments: the field is declared here, by the layer that owns it.
declare module '../../http/deps' {
  interface AppDeps {
    /** The ways to pay this process takes; `PAYMENT_METHODS` when unset (a test may add its own). */
    paymentMethods?: readonly PaymentMethod[];
  }
}
