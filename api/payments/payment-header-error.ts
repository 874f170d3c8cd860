import { AppError } from '../../shared/errors';

/** Where a payment proof is carried: an HTTP header, or the MCP tool call's `_meta` member. */
export type PaymentHeaderName = 'PAYMENT-SIGNATURE' | 'X-PAYMENT' | '_meta["x402/payment"]';

/**
 * 400 `invalid_payment_header`: a payment header that cannot be read. A malformed proof is the
 * caller's fault, so it is a 400 as the x402 transports say, never a 500, and never a 402 (nothing
 * was verified, so there is no refusal to report). `details` names the header and the reason.
 */
export class InvalidPaymentHeaderError<Reason extends string = string> extends AppError {
  /** The machine-readable reason, also in `details.reason`. */
  readonly reason: Reason;

  /**
   * @param header - which header
   * @param reason - the machine-readable reason
   * @param message - one human sentence saying what to fix
   * @param extra - more details (e.g. the schema issues)
   */
  constructor(header: PaymentHeaderName, reason: Reason, message: string, extra: Record<string, unknown> = {}) {
    super(400, 'invalid_payment_header', message, { details: { header, reason, ...extra } });
    this.name = 'InvalidPaymentHeaderError';
    this.reason = reason;
  }
}
