import type { JobIdentity } from '../../jobs';
import type { AuthorizationRow, SessionSummary } from '../../shared/payments/authorization-store';
import type { Charge } from './charge';

/** A paid request, as the route hands it to the pipeline after validation. */
export interface PaidRequest {
  charge: Charge;
  /**
   * The body's `wallet_address`: must be the payment's signer (or own the bundle). Undefined only
   * where the product gives a no-wallet quote (a bundle plan posted alone): then a payment is a 422.
   */
  wallet: string | undefined;
  /** Hash of the canonical request: the same authorization or key with another request is a 409. */
  requestHash: string;
  /** Product fields to add to each delivered per-call body without storing them; see {@link DeliveryExtras}. */
  onDelivery?: DeliveryExtras;
  /**
   * Members added to every answer that is not the delivery (the quote, a refusal, a pending
   * settlement): how the product's deliverable will be obtained, e.g. a bundle token.
   */
  nonFinalNote?: Record<string, unknown>;
}

/** What the pipeline tells the work about the payment it runs under. */
export interface PaidWorkContext {
  /** Public id of the result. */
  resultId: string;
  /** The paying wallet, as stored (lowercase EVM address or base58). */
  payer: string;
  /** The per-call payment's authorization (null when a bundle credit pays). */
  authorizationId: string | null;
  /** The job identity of this payment: a retry of the same payment finds the same job. */
  jobIdentity: JobIdentity;
  /** The id of the payment method that paid (`PaymentMethod.id`). */
  method: string;
}

/** What the paid work hands back: the response body (stored for replays) and the ledger summary. */
export interface WorkOutcome {
  response: Record<string, unknown>;
  summary: SessionSummary;
  /** The text to keep for calibration review, or null. */
  calibrationText: string | null;
}

/** The work a payment buys. */
export type PaidWork = (paid: PaidWorkContext) => Promise<WorkOutcome>;

/** How a per-call 200 is being delivered: `first` only in the request that made the reservation, right after its settlement. */
export interface Delivery {
  first: boolean;
  /** False when the settlement saw no referral rewards waiting for the payer; absent when not known. */
  rewardsDue?: boolean;
}

/**
 * Adds fields to a delivered body that are never stored with the response. Called after the
 * settlement succeeded, on every 200 (first delivery and replays). After settlement the signed
 * authorization is public on chain, so anyone can rebuild the payment header and replay the
 * request: a bearer secret (a bundle token) is minted only when `delivery.first` is true, and a
 * replay gets only what is safe to show anyone. A throw is logged and the stored body is delivered.
 */
export type DeliveryExtras = (authorization: AuthorizationRow, delivery: Delivery) => Promise<Record<string, unknown>>;

/** A paid request with the pipeline's reading of its headers. */
export interface MethodRequest extends PaidRequest {
  wallet: string;
  /** The Idempotency-Key header, on products that honour it. */
  idempotencyKey?: string;
}
