import { InvalidPaymentHeaderError } from '../payment-header-error';

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

/** 400 `invalid_payment_header` for the legacy `X-PAYMENT` header (see {@link InvalidPaymentHeaderError}). */
export class PaymentHeaderError extends InvalidPaymentHeaderError<PaymentHeaderReason> {
  /**
   * @param reason - the machine-readable reason
   * @param message - one human sentence saying what to fix
   */
  constructor(reason: PaymentHeaderReason, message: string) {
    super('X-PAYMENT', reason, message);
    this.name = 'PaymentHeaderError';
  }
}
