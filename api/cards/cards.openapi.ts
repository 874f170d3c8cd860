import { CARD_PACKS } from '../../shared/products';
import type { OperationSpec } from '../http/openapi/operation';
import { COMMON_RESPONSES, errorBodySchema } from '../http/responses.schema';
import { BUNDLE_TOKEN_HEADER } from '../payments/bundle-credit/bundle-token';
import { cancelResponseSchema, checkoutRequestSchema, checkoutResponseSchema, packsResponseSchema, returnQuerySchema } from './cards.schema';
import { CANCEL_PATH, CHECKOUT_PATH } from './present-packs';
import { CARD_WEBHOOK_PATH } from './webhook';

const ABOUT =
  `Card credit packs (${CARD_PACKS.map((p) => `${p.id}: ${p.priceUsd} USD for ${p.credits} credits`).join('; ')}): basic-score credits on a bundle token, ` +
  'bought with a card on the card processor\'s hosted checkout page (Stripe; card data never reaches this service). Credits are granted only ' +
  'from the processor\'s verified webhook (or its events list, by the reconciler), once per payment, after the amount and currency are ' +
  'checked against the pack; never from the return page.';

const UNAVAILABLE = { description: 'card_payments_unavailable: this server has no card processor configured.', schema: errorBodySchema };

const TOKEN_ERRORS = {
  description: `bundle_token_required (no ${BUNDLE_TOKEN_HEADER}) or invalid_bundle_token (unknown, or replaced by a recovery).`,
  schema: errorBodySchema,
};

const HTML_PAGE = { description: 'An HTML page with the purchase\'s state (pending, paid or failed); never the token.', mediaType: 'text/html', schema: { type: 'string' } };

/** OpenAPI specs of the card pack routes. */
export const cardOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/card/packs',
    operationId: 'getCardPacks',
    summary: 'The card credit packs with their live quotes, one-time and monthly terms.',
    description: `${ABOUT} Prices are in cents (USD); the discount is against the basic session's list price per call.`,
    tags: ['card'],
    responses: { '200': { description: 'The packs.', schema: packsResponseSchema }, '500': COMMON_RESPONSES['500'] },
  },
  {
    method: 'post',
    path: CHECKOUT_PATH,
    operationId: 'postCardCheckout',
    summary: 'Start a hosted card checkout for a pack: 201 with the checkout URL, and a new bundle\'s token (shown once).',
    description:
      `${ABOUT} Without ${BUNDLE_TOKEN_HEADER}: a new bundle, whose secret bundle_token is in this 201 only (stored as a hash, never in a ` +
      `URL, redirect or log). With ${BUNDLE_TOKEN_HEADER}: a top-up of that bundle. The purchase is pending (GET /api/bundle/balance ` +
      'lists it) until the payment settles. auto_refill: true charges the same pack monthly to the card saved at checkout, from this ' +
      'service\'s own monthly job, once per month; a failed renewal adds nothing and is never retried; POST /api/card/renewal/cancel stops ' +
      'it; credits already granted remain. After paying, the processor sends the browser to GET /api/card/checkout/complete.',
    tags: ['card'],
    body: checkoutRequestSchema,
    headers: [{ name: BUNDLE_TOKEN_HEADER, description: 'Optional: the bundle to top up (hlb_...).', schema: { type: 'string' } }],
    responses: {
      '201': { description: 'The checkout, pending until paid.', schema: checkoutResponseSchema },
      '401': TOKEN_ERRORS,
      '422': { description: 'validation_failed: unknown pack, a non-boolean auto_refill, or an unknown field (each named in details.fields); nothing is created.', schema: errorBodySchema },
      '500': COMMON_RESPONSES['500'],
      '502': { description: 'card_processor_error: the processor did not create the checkout; nothing was created or charged.', schema: errorBodySchema },
      '503': UNAVAILABLE,
    },
  },
  {
    method: 'post',
    path: CARD_WEBHOOK_PATH,
    operationId: 'postCardWebhook',
    summary: 'The card processor\'s signed events (Stripe webhook endpoint); not for clients.',
    description:
      'The signature (Stripe-Signature, t= and v1= HMAC-SHA256 under the endpoint secret) is verified with the official SDK over the raw ' +
      'bytes; a missing, wrong or stale one (older than STRIPE_WEBHOOK_TOLERANCE_SECONDS) is 400 and nothing is recorded. Handled: ' +
      'checkout.session.completed (payment_status paid), checkout.session.async_payment_succeeded / _failed, checkout.session.expired, ' +
      'payment_intent.succeeded / payment_failed of renewals. Each event is stored, then applied; a grant is unique per checkout session or ' +
      'renewal payment intent, so duplicate, reordered and late deliveries grant once. An amount, currency or pack that does not match ' +
      'the catalog grants nothing and is logged for an operator (answered 200: delivering it again would not change it).',
    tags: ['card'],
    headers: [{ name: 'Stripe-Signature', description: 't=<unix seconds>,v1=<hex HMAC-SHA256>', schema: { type: 'string' }, required: true }],
    responses: {
      '200': {
        description: 'Received and applied; outcome says what it did.',
        schema: {
          type: 'object',
          required: ['received', 'outcome'],
          properties: {
            received: { const: true },
            outcome: {
              enum: ['granted', 'already_granted', 'amount_mismatch', 'awaiting_payment', 'purchase_failed', 'renewal_failed', 'unknown_purchase', 'ignored', 'duplicate'],
            },
          },
        },
      },
      '400': { description: 'invalid_signature: nothing was recorded.', schema: errorBodySchema },
      '413': { description: 'payload_too_large', schema: errorBodySchema },
      '500': { description: 'Not applied (the processor delivers it again).', schema: errorBodySchema },
      '503': UNAVAILABLE,
    },
  },
  {
    method: 'get',
    path: '/api/card/checkout/complete',
    operationId: 'getCardCheckoutComplete',
    summary: 'The page the processor sends the buyer to after paying: the purchase\'s state. Grants nothing.',
    tags: ['card'],
    query: returnQuerySchema,
    responses: { '200': HTML_PAGE, ...COMMON_RESPONSES },
  },
  {
    method: 'get',
    path: '/api/card/checkout/cancelled',
    operationId: 'getCardCheckoutCancelled',
    summary: 'The page the processor sends the buyer to after leaving the checkout unpaid.',
    tags: ['card'],
    query: returnQuerySchema,
    responses: { '200': HTML_PAGE, ...COMMON_RESPONSES },
  },
  {
    method: 'post',
    path: CANCEL_PATH,
    operationId: 'postCardRenewalCancel',
    summary: 'Cancel the monthly renewals of the bundle whose token is sent: no further charges; credits already granted remain.',
    tags: ['card'],
    headers: [{ name: BUNDLE_TOKEN_HEADER, description: 'The bundle token (hlb_...).', schema: { type: 'string' }, required: true }],
    responses: { '200': { description: 'Cancelled (idempotent).', schema: cancelResponseSchema }, '401': TOKEN_ERRORS, '500': COMMON_RESPONSES['500'] },
  },
];
