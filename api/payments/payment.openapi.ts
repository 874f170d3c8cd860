import { PRODUCTS, type Product } from '../../shared/products';
import { errorBodySchema } from '../http/responses.schema';
import type { OperationSpec } from '../http/openapi/operation';
import { MAX_IDEMPOTENCY_KEY_CHARS } from './idempotency';
import { paysForProduct, type PaymentMethod } from './methods';
import { REPLAY_HEADER } from './quote';

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
    extensions: {
      type: 'object',
      description: 'x402 v2 extensions (also in the PAYMENT-REQUIRED header): `bazaar`, the discovery declaration facilitators index, with the request body\'s JSON schema and the answer\'s, each with an example.',
    },
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

const IDEMPOTENCY_KEY_HEADER = {
  name: 'Idempotency-Key',
  description: `Optional opaque key (at most ${MAX_IDEMPOTENCY_KEY_CHARS} characters): the same key and request replay the first result; another request with the key is 409.`,
  schema: { type: 'string', maxLength: MAX_IDEMPOTENCY_KEY_CHARS },
} as const;

/**
 * The request headers a paid product's POST reads of its own (Idempotency-Key where it honours
 * one); the payment methods' headers are added to every paid POST by {@link withPaymentMethodHeaders}.
 * @param product - the catalog entry
 * @returns the header specs
 */
export function paidCallHeaders(product: Product): NonNullable<OperationSpec['headers']> {
  return product.idempotencyKey ? [IDEMPOTENCY_KEY_HEADER] : [];
}

/**
 * Adds, to the POST of every paid product, the request headers of each payment method that pays
 * for it, first: the document then lists exactly the methods the pipeline takes.
 * @param operations - every operation the service serves
 * @param methods - the payment methods this process takes
 * @returns the operations, paid POSTs with their payment headers
 */
export function withPaymentMethodHeaders(operations: readonly OperationSpec[], methods: readonly PaymentMethod[]): OperationSpec[] {
  return operations.map((op) => {
    const product = op.method === 'post' ? Object.values(PRODUCTS).find((p) => p.path === op.path) : undefined;
    if (!product) return op;
    const headers = methods
      .filter((method) => paysForProduct(method, product))
      .flatMap((method) => method.headers.map((h) => ({ name: h.name, description: h.description, schema: { type: 'string' } })));
    return { ...op, headers: [...headers, ...(op.headers ?? [])] };
  });
}

/**
 * The prices of a product as one phrase, from the catalog (e.g. "basic 50000 / deep 180000 USDC units").
 * @param product - the catalog entry
 * @returns the phrase
 */
export function pricePhrase(product: Product): string {
  const tiers = Object.entries(product.tiers);
  if (tiers.length === 1) return `${tiers[0][1].price.usdcUnits} USDC units`;
  return `${tiers.map(([id, tier]) => `${id} ${tier.price.usdcUnits}`).join(' / ')} USDC units`;
}

/** Responses every paid POST may give besides its 200. */
export const PAID_CALL_RESPONSES = {
  '402': {
    description:
      'Payment required, refused (error = the reason; a payment header that cannot be read is error invalid_payment_header with details.header and details.reason) or not settled (error = settlement_failed, with a PAYMENT-RESPONSE whose success is false). The body is the x402 challenge; the PAYMENT-REQUIRED header carries the v2 object. Nothing was charged.',
    schema: paymentRequiredSchema,
    headers: { 'PAYMENT-REQUIRED': { description: 'base64 of the x402 v2 PaymentRequired.', schema: { type: 'string' } }, 'PAYMENT-RESPONSE': receiptHeader },
  },
  '400': { description: 'ambiguous_payment: more than one way to pay in one request. Nothing was charged.', schema: errorBodySchema },
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
