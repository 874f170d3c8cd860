import { PRODUCT_TERMS, PRODUCTS } from '../../shared/products';
import type { OperationSpec } from '../http/openapi/operation';
import { TARGETS_SCHEMA, errorBodySchema } from '../http/responses.schema';
import { BUNDLE_TOKEN_HEADER } from '../payments/bundle-credit/bundle-token';
import { PAID_CALL_RESPONSES, RECEIPT_HEADERS, paidCallHeaders, pricePhrase } from '../payments/payment.openapi';
import { REPLAY_HEADER } from '../payments/quote';
import { simulateQuoteQuerySchema, simulateRequestSchema } from './simulate.schema';

const product = PRODUCTS.simulate;

const sessionResponseSchema = {
  type: 'object',
  required: ['result_id', 'tier', 'target_profile', 'score', 'improvement', 'referral_code', 'reward_bundle_tokens'],
  properties: {
    result_id: { type: 'string', format: 'uuid' },
    tier: { enum: Object.keys(product.tiers) },
    target_profile: { type: 'string' },
    score: {
      type: 'object',
      required: ['scorer_version', 'eq_score', 'passed', 'human_likeness', 'suggested_prompt_addition'],
      properties: {
        scorer_version: { type: 'string' },
        eq_score: { type: 'number', minimum: 0, maximum: 100 },
        passed: { type: 'boolean' },
        human_likeness: { type: 'number', minimum: 0, maximum: 100 },
        suggested_prompt_addition: { type: 'string', description: "Text to add to the agent's system prompt." },
        suggested_delay_seconds: { type: ['object', 'null'] },
      },
    },
    improvement: { type: 'string', description: 'One next step.' },
    referral_code: { type: 'string', description: "This wallet's own referral code (section 8)." },
    reward_bundle_tokens: {
      type: 'array',
      items: { type: 'string' },
      description: 'Referral rewards due to this wallet, as bundle tokens: in the first delivery of a paid session only (never in a replay or a bundle redemption).',
    },
    reward_bundles: {
      type: 'array',
      description: 'Paid sessions: the reward bundles delivered with this payment (ids and credits, not secret); recover a lost token with POST /api/bundle/recover.',
      items: { type: 'object', properties: { bundle_id: { type: 'string', format: 'uuid' }, credits: { type: 'integer' } } },
    },
    calibration: { type: 'object' },
    diagnostics: { type: 'object', description: 'Deep only: per dimension measured, target, delta, fit and contributions.' },
    targets: { ...TARGETS_SCHEMA, description: `Deep only. ${TARGETS_SCHEMA.description}` },
    signals: { type: 'array', items: { type: 'object' }, description: 'Deep only: machine-like signals with evidence spans.' },
    rewrite_guidance: { type: 'array', items: { type: 'object' }, description: 'Deep only: prioritized rewrite steps.' },
    payment: {
      type: 'object',
      description: 'Paid sessions: the settled payment.',
      properties: { network: { type: 'string' }, asset: { type: 'string' }, amount: { type: 'string' }, transaction: { type: 'string' } },
    },
    redemption: {
      type: 'object',
      description: `${BUNDLE_TOKEN_HEADER} sessions (instead of payment): the bundle and its credits left after this one.`,
      properties: { bundle_id: { type: 'string', format: 'uuid' }, credits_spent: { const: 1 }, credits_remaining: { type: 'integer', minimum: 0 } },
    },
  },
};

/** OpenAPI specs of the simulate routes. */
export const simulateOperations: OperationSpec[] = [
  {
    method: 'post',
    path: product.path,
    operationId: 'postSimulate',
    summary: `Paid scoring session (${pricePhrase(product)}) over x402.`,
    description:
      'Without payment: 402 with the x402 requirements (body and PAYMENT-REQUIRED header). Sign the first accepts entry ' +
      '(EIP-3009 TransferWithAuthorization) and retry the same request once with PAYMENT-SIGNATURE. The authorization is ' +
      'reserved before any work; it is settled only after the result exists. A lost response is replayed by retrying the ' +
      `same request with the same authorization (header ${REPLAY_HEADER}: true), never charged twice; the same ` +
      'authorization with another request is 409 payment_already_used. Validation errors (422) come before any payment. ' +
      `Prepaid: with ${BUNDLE_TOKEN_HEADER} and no payment header, a basic session spends one credit of the bundle ` +
      '(taken atomically, never below zero; given back if scoring fails); wallet_address must be the wallet that bought the ' +
      'bundle. Deep is refused before anything is spent (422 bundle_basic_only); no credit left answers the normal 402 ' +
      'challenge with error bundle_exhausted (pay per call instead). With Idempotency-Key, the same request replays the ' +
      `stored result (${REPLAY_HEADER}: true) without a second credit. A redemption is not a ledger settlement (the ` +
      'bundle purchase was): it has no receipt headers and carries redemption instead of payment, and it appears in no live ' +
      'feed, leaderboard, scoreboard, statistic, public result, certificate, progress report, training dataset or duel fee. ' +
      `share_for_calibration keeps the text for manual review only when it scores above ${PRODUCT_TERMS.calibrationThresholdPct}.`,
    tags: ['paid'],
    body: simulateRequestSchema,
    headers: paidCallHeaders(product),
    responses: {
      '200': { description: 'The session result, with the receipt headers (paid) or the redemption (bundle).', schema: sessionResponseSchema, headers: RECEIPT_HEADERS },
      ...PAID_CALL_RESPONSES,
      '400': {
        description: `ambiguous_payment: more than one way to pay (PAYMENT-SIGNATURE, X-PAYMENT, tx_hash, ${BUNDLE_TOKEN_HEADER}). Nothing was charged.`,
        schema: errorBodySchema,
      },
      '401': { description: `invalid_bundle_token: the ${BUNDLE_TOKEN_HEADER} matches no bundle (unknown, or replaced by a recovery).`, schema: errorBodySchema },
      '403': { description: 'bundle_wallet_mismatch: wallet_address is not the wallet that owns the bundle.', schema: errorBodySchema },
      '422': {
        description: `validation_failed: every failing field with its JSON path (checked before any payment); bundle_basic_only: ${BUNDLE_TOKEN_HEADER} with tier deep.`,
        schema: errorBodySchema,
      },
    },
  },
  {
    method: 'get',
    path: product.path,
    operationId: 'getSimulateQuote',
    summary: 'The payment challenge of a simulate session (quote only; never settles).',
    tags: ['paid'],
    query: simulateQuoteQuerySchema,
    responses: { '402': PAID_CALL_RESPONSES['402'] },
  },
];
