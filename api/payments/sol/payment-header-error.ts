import { AppError } from '../../../shared/errors';

/** Why an `X-PAYMENT` header was rejected; sent as `details.reason` (with `details.header` = `X-PAYMENT`, as for PAYMENT-SIGNATURE). */
export type PaymentHeaderReason =
  | 'empty'
  | 'too_long'
  | 'not_base64'
  | 'not_utf8'
  | 'not_json'
  | 'not_object'
  | 'wrong_version'
  | 'wrong_scheme'
  | 'wrong_network'
  | 'missing_payload'
  | 'bad_signature'
  | 'bad_payer';

/**
 * 400 `invalid_payment_header`: the legacy `X-PAYMENT` header cannot be read as an x402 v1 SOL
 * payment. A malformed proof is the caller's fault, so it is a 400 as the x402 transports say,
 * never a 500, and never a 402 (nothing was verified, so there is no refusal to report).
 */
export class PaymentHeaderError extends AppError {
  /** The machine-readable reason, also in `details.reason`. */
  readonly reason: PaymentHeaderReason;

  /**
   * @param reason - the machine-readable reason
   * @param message - one human sentence saying what to fix
   */
  constructor(reason: PaymentHeaderReason, message: string) {
    super(400, 'invalid_payment_header', message, { details: { header: 'X-PAYMENT', reason } });
    this.name = 'PaymentHeaderError';
    this.reason = reason;
  }
}
