import { CARD_PACKS } from '../../shared/products';
import type { BodyOf, QueryOf } from '../http/ajv';

/** JSON schema of {@link CheckoutRequest}: strict (no coercion, no unknown fields). */
export const checkoutRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['pack'],
  properties: {
    pack: {
      type: 'string',
      enum: CARD_PACKS.map((p) => p.id),
      description: `The pack to buy (${CARD_PACKS.map((p) => `${p.id}: ${p.credits} credits for ${p.priceUsd} USD`).join('; ')}). The price is decided by the server from this id; no amount is ever sent.`,
    },
    auto_refill: {
      type: 'boolean',
      default: false,
      description:
        'true: the same pack again every month (charged off-session to the card saved at checkout, once per month; a failed renewal adds nothing and is not retried; cancel with POST /api/card/renewal/cancel). false (default): one-time. A strict JSON boolean: "true" or 1 is refused.',
    },
  },
} as const;

/** Body of `POST /api/card/checkout`. */
export type CheckoutRequest = BodyOf<typeof checkoutRequestSchema>;

/** Query of the return pages (`/api/card/checkout/complete` and `/cancelled`). */
export const returnQuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['session_id'],
  properties: { session_id: { type: 'string', pattern: '^cs_[A-Za-z0-9_]{1,200}$', description: 'The checkout session (the processor fills it in).' } },
} as const;

/** A validated return-page query. */
export type ReturnQuery = QueryOf<typeof returnQuerySchema>;

const priceSchema = {
  type: 'object',
  required: ['amount_cents', 'currency', 'display'],
  properties: {
    amount_cents: { type: 'integer', description: 'The price in the currency\'s minor unit (cents).' },
    currency: { type: 'string', description: 'ISO 4217 code, lowercase (usd).' },
    display: { type: 'string', description: 'For people, e.g. $5.00.' },
  },
} as const;

/** JSON schema of one pack in `GET /api/card/packs`. */
export const packSchema = {
  type: 'object',
  required: ['id', 'price', 'credits', 'discount_pct', 'list_value_cents', 'cents_per_credit', 'terms'],
  properties: {
    id: { type: 'string', enum: CARD_PACKS.map((p) => p.id) },
    price: priceSchema,
    credits: { type: 'integer', description: 'Basic-score credits granted per settled payment (the purchase, and each settled renewal).' },
    discount_pct: { type: 'integer', description: 'Published discount against the basic session\'s list price.' },
    list_value_cents: { type: 'integer', description: 'What the credits cost at the basic list price, per call (the discount is measured against it).' },
    cents_per_credit: { type: 'number' },
    terms: {
      type: 'object',
      required: ['one_time', 'monthly'],
      properties: {
        one_time: { type: 'object', description: 'auto_refill: false. One payment, one grant.' },
        monthly: { type: 'object', description: 'auto_refill: true. What a renewal does and does not do.' },
      },
    },
  },
} as const;

/** JSON schema of `GET /api/card/packs`. */
export const packsResponseSchema = {
  type: 'object',
  required: ['available', 'quoted_at', 'packs', 'checkout', 'credits'],
  properties: {
    available: { type: 'boolean', description: 'false: this server has no card processor configured; a checkout answers 503 card_payments_unavailable.' },
    quoted_at: { type: 'string', format: 'date-time' },
    packs: { type: 'array', items: packSchema },
    checkout: { type: 'object', description: 'Where to buy: POST /api/card/checkout.' },
    credits: { type: 'object', description: 'How the credits are spent (X-BUNDLE-TOKEN, basic tier only) and where the balance is read.' },
  },
} as const;

/** JSON schema of the 201 of `POST /api/card/checkout`. */
export const checkoutResponseSchema = {
  type: 'object',
  required: ['checkout_url', 'checkout_session_id', 'purchase_id', 'bundle_id', 'bundle_token', 'pack', 'price', 'credits', 'auto_refill', 'status', 'expires_at'],
  properties: {
    checkout_url: { type: 'string', format: 'uri', description: 'The hosted checkout page: open it in a browser and pay there. Card data never reaches this service.' },
    checkout_session_id: { type: 'string' },
    purchase_id: { type: 'string', format: 'uuid' },
    bundle_id: { type: 'string', format: 'uuid' },
    bundle_token: {
      type: ['string', 'null'],
      description:
        'For a new bundle: its secret token (hlb_...), shown in this response only and stored as a hash; it is never put in a URL, a redirect or a log. null for a top-up (the token sent in X-BUNDLE-TOKEN stays the same).',
    },
    token_note: { type: 'string' },
    pack: { type: 'string' },
    price: priceSchema,
    credits: { type: 'integer', description: 'Credits granted once the payment settles (the processor\'s verified webhook; never the return page).' },
    auto_refill: { type: 'boolean' },
    status: { const: 'pending', description: 'The purchase is pending until its payment settles; GET /api/bundle/balance shows it.' },
    expires_at: { type: ['string', 'null'], format: 'date-time', description: 'When the checkout page stops taking payment.' },
  },
} as const;

/** JSON schema of `POST /api/card/renewal/cancel`. */
export const cancelResponseSchema = {
  type: 'object',
  required: ['bundle_id', 'cancelled', 'renewals'],
  properties: {
    bundle_id: { type: 'string', format: 'uuid' },
    cancelled: { type: 'integer', description: 'Renewals cancelled by this request (0 when none was active: cancelling twice is harmless).' },
    renewals: { type: 'array', items: { type: 'object' }, description: 'Every renewal of the bundle, as the balance shows them.' },
    note: { type: 'string' },
  },
} as const;
