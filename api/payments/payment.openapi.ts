import { errorBodySchema } from '../http/responses.schema';
import { REPLAY_HEADER } from './paid-call';

const receiptHeader = {
  description: 'Settlement receipt: base64 of JSON {success, transaction, network, payer}.',
  schema: { type: 'string' },
};

/** The payment challenge (402) as the OpenAPI document describes it. */
const paymentRequiredSchema = {
  type: 'object',
  required: ['x402Version', 'accepts', 'resource'],
  properties: {
    x402Version: { const: 2 },
    error: { type: 'string', description: 'payment_required, or why the payment was refused (verification or settlement).' },
    message: { type: 'string' },
    resource: { type: 'object', properties: { url: { type: 'string' }, description: { type: 'string' }, mimeType: { type: 'string' } } },
    accepts: {
      type: 'array',
      description: 'First: USDC (exact, EIP-3009) on the configured network; then the legacy SOL entry in lamports (X-PAYMENT).',
      items: {
        type: 'object',
        required: ['scheme', 'network', 'amount', 'maxAmountRequired', 'asset', 'payTo', 'maxTimeoutSeconds'],
        properties: {
          scheme: { const: 'exact' },
          network: { type: 'string' },
          amount: { type: 'string' },
          maxAmountRequired: { type: 'string' },
          asset: { type: 'string' },
          payTo: { type: 'string' },
          maxTimeoutSeconds: { type: 'integer' },
          extra: { type: 'object', description: 'USDC: the EIP-712 domain {name, version}.' },
        },
      },
    },
  },
};

/** Request headers every paid POST reads. */
export const PAID_CALL_HEADERS = [
  {
    name: 'PAYMENT-SIGNATURE',
    description: 'x402 v2: base64 of JSON {x402Version: 2, resource: {url}, accepted, payload: {signature, authorization}}.',
    schema: { type: 'string' },
  },
  {
    name: 'X-PAYMENT',
    description: 'x402 v1 legacy (SOL): base64 of JSON {x402Version: 1, scheme: "exact", network, payload: {signature, payer}}.',
    schema: { type: 'string' },
  },
  {
    name: 'Idempotency-Key',
    description: 'Optional opaque key (at most 255 characters): the same key and request replay the first result; another request with the key is 409.',
    schema: { type: 'string', maxLength: 255 },
  },
] as const;

/** Responses every paid POST may give besides its 200. */
export const PAID_CALL_RESPONSES = {
  '402': {
    description:
      'Payment required, refused (error = the reason) or not settled (error = settlement_failed, with a PAYMENT-RESPONSE whose success is false). The body is the x402 challenge; the PAYMENT-REQUIRED header carries the v2 object.',
    schema: paymentRequiredSchema,
    headers: { 'PAYMENT-REQUIRED': { description: 'base64 of the x402 v2 PaymentRequired.', schema: { type: 'string' } }, 'PAYMENT-RESPONSE': receiptHeader },
  },
  '400': { description: 'invalid_payment_header or ambiguous_payment: a payment header that cannot be read. Nothing was charged.', schema: errorBodySchema },
  '409': {
    description: 'payment_already_used: this authorization was used for another request; idempotency_conflict: the Idempotency-Key was used with another request.',
    schema: errorBodySchema,
  },
  '422': { description: 'validation_failed: every failing field with its JSON path. Checked before any payment.', schema: errorBodySchema },
  '503': { description: 'facilitator_unavailable, queue_unavailable, evm_rpc_unavailable (a smart-wallet signature needs the chain) or payments_not_configured. Nothing was charged.', schema: errorBodySchema },
  '504': {
    description: `job_timeout (nothing charged) or settlement_pending: retry the same request with the same authorization; it is never charged twice (answers carry ${REPLAY_HEADER}: true).`,
    schema: errorBodySchema,
  },
} as const;

/** The receipt headers of a paid 200. */
export const RECEIPT_HEADERS = { 'PAYMENT-RESPONSE': receiptHeader, 'X-PAYMENT-RESPONSE': receiptHeader };
