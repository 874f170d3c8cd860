import { PRODUCT_TERMS, PRODUCTS } from '../../shared/products';
import { DEFAULT_NETWORK_CONFIG } from '../../shared/operators/network-config';
import type { OperationSpec } from '../http/openapi/operation';
import { errorBodySchema } from '../http/responses.schema';
import { PAID_CALL_RESPONSES, RECEIPT_HEADERS, paidCallHeaders, pricePhrase } from '../payments/payment.openapi';
import { REPLAY_HEADER } from '../payments/quote';
import { DUEL_ID_SCHEMA, duelQuoteQuerySchema, duelRequestSchema, openDuelsQuerySchema } from './duel.schema';
import { DUEL_CREATED } from './present-duel';

const product = PRODUCTS.duel;
const t = PRODUCT_TERMS;

const legSchema = {
  type: 'object',
  description: "This bot's own leg: a full scored session on the ledger (result_id as in GET /api/results/{result_id}).",
  properties: {
    result_id: { type: 'string', format: 'uuid' },
    score: { type: 'object', properties: { eq_score: { type: 'number' }, passed: { type: 'boolean' }, human_likeness: { type: 'number' }, suggested_prompt_addition: { type: 'string' } } },
    improvement: { type: 'string' },
  },
};

const sideSchema = {
  type: 'object',
  properties: {
    wallet: { type: 'string', description: 'Masked: first 6 and last 4 characters.' },
    eq_score: { type: 'number', description: 'Only once resolved.' },
    passed: { type: 'boolean', description: 'Only once resolved.' },
    result_id: { type: 'string', format: 'uuid', description: 'Only once resolved.' },
  },
};

const duelSchema = {
  type: 'object',
  required: ['duel_id', 'status', 'challenge_url', 'prompt_id', 'target_profile', 'created_at', 'expires_at', 'challenger', 'opponent'],
  properties: {
    duel_id: { type: 'string', format: 'uuid' },
    status: { enum: ['open', 'resolved', 'expired'], description: 'An open duel past its expiry shows expired even before the sweep.' },
    challenge_url: { type: 'string', description: 'This duel (GET), to share with an opponent: it shows the prompt and profile to join with.' },
    prompt_id: { type: 'integer' },
    situation: { type: 'string' },
    target_profile: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    expires_at: { type: 'string', format: 'date-time' },
    challenger: sideSchema,
    opponent: { oneOf: [sideSchema, { type: 'null' }] },
    resolved_at: { type: 'string', format: 'date-time' },
    expired_at: { type: 'string', format: 'date-time' },
    outcome: { enum: ['challenger', 'opponent', 'draw'], description: 'Resolved: the higher EQ score wins; equal EQ scores (as reported) are a draw.' },
    winner: { enum: ['challenger', 'opponent', null], description: 'Resolved: null for a draw.' },
    shared: { type: 'boolean', description: 'Resolved: whether both bots set share_answer.' },
    answers: {
      type: 'object',
      description: 'Only when both bots set share_answer: both answers.',
      properties: { challenger: { type: 'string' }, opponent: { type: 'string' } },
    },
    breakdown: {
      type: 'array',
      description: 'Only when both bots set share_answer: per dimension (empathy, formality, directness, hesitation, timing) the target, each bot\'s measured value and fit (0..1), and which bot fitted closer.',
      items: {
        type: 'object',
        properties: {
          dimension: { type: 'string' },
          target: { type: 'number' },
          challenger: { type: 'object', properties: { measured: { type: 'number' }, fit: { type: 'number' } } },
          opponent: { type: 'object', properties: { measured: { type: 'number' }, fit: { type: 'number' } } },
          closer: { enum: ['challenger', 'opponent', 'even'] },
        },
      },
    },
  },
};

const feeSchema = {
  type: 'object',
  description: 'How the live quote was made for this wallet.',
  properties: {
    entry_usdc_units: { type: 'integer' },
    entry_lamports: { type: 'integer' },
    failures: { type: 'integer', description: 'Consecutive failed sessions (see the POST description).' },
    counted_products: {
      type: 'array',
      items: { type: 'string' },
      description: 'The ledger products whose sessions count in failures: simulate sessions and duel legs (scored replies against a profile).',
    },
    multiplier: { type: 'number', description: `1 + failures x ${t.duelFailureSurcharge}.` },
    escalated_usdc_units: { type: 'integer', description: 'entry x multiplier, rounded down, before any loyalty discount.' },
    escalated_lamports: { type: 'integer' },
    suspension_cap: { type: 'integer', description: 'More consecutive failures than this suspend the wallet from duels (runtime network configuration).' },
  },
};

const FEE_TEXT =
  `Fee per bot: ${product.tiers[product.defaultTier].price.usdcUnits} USDC units (${product.tiers[product.defaultTier].price.lamports} lamports) x ` +
  `(1 + failures x ${t.duelFailureSurcharge}), rounded down, then the loyalty discount (${t.loyaltyDiscountPct} percent from ` +
  `${t.loyaltyThresholdSessions} settled paid sessions). failures: the wallet's consecutive failed sessions, i.e. how many of its most ` +
  'recent settled scored sessions failed, counted back from the newest until the first pass. Only scored replies against a ' +
  'profile count: paid simulate sessions and duel legs (duel_fee.counted_products); a stress test, a rewrite, a script check, a ' +
  'report or a purchase is no session here, and a basic session paid with a bundle credit is not on the ledger (see POST /api/simulate). A wallet with more failures than the suspension cap (runtime network configuration, ' +
  `PATCH /api/admin/configure-network failure_suspension_cap, default ${DEFAULT_NETWORK_CONFIG.failureSuspensionCap}) is refused with ` +
  '403 wallet_suspended before any quote or payment; POST /api/simulate never suspends, and one passed session lifts it. The unpaid ' +
  'request needs wallet_address so the 402 quote (accepts[].amount, discount, duel_fee) is this wallet\'s. The payment must match the ' +
  'quote of the moment it arrives: a payment signed for a stale quote (a session settled in between changed failures or the ' +
  'discount) is refused with 402 invalid_exact_evm_authorization_value carrying the fresh quote; nothing is charged, sign again. ' +
  'A retry of an already reserved payment with the same request is held to the amount it was reserved at.';

/** OpenAPI specs of the duel routes. */
export const duelOperations: OperationSpec[] = [
  {
    method: 'post',
    path: product.path,
    operationId: 'postDuel',
    summary: `Open or join a head-to-head duel (${pricePhrase(product)} per bot, escalated by failures) over x402.`,
    description:
      `Without duel_id: after payment, the duel is open; the answer carries marker ${DUEL_CREATED}, duel_id and challenge_url, and ` +
      "the challenger's leg is a full validated session on the ledger. The duel is listed in GET /api/duel/open and joinable once " +
      `that payment settled, for ${t.duelOpenExpiryHours} hours; then the maintenance queue expires it (it leaves the list, cannot be ` +
      "joined, the challenger's leg stays on the ledger, nothing is refunded). With duel_id, from a second wallet, with the duel's own " +
      'prompt_id and target_profile: after payment the duel is resolved and the answer is the resolution (as GET /api/duel/{duel_id}) ' +
      "with the joiner's own leg. Both bots answered the prompt's situation (scored as the incoming message) against the same profile; " +
      'the higher EQ score wins and equal EQ scores are a draw. Answers and the per-dimension breakdown are shown only if both bots set ' +
      'share_answer (an answer is stored only if its bot opted in, and cleared at resolution unless both did, or at expiry). ' +
      'Refused before any quote or payment (nothing charged): your own duel (409 own_duel), a resolved duel (409 duel_resolved), an ' +
      'expired one (410 duel_expired), another prompt or profile (409 duel_mismatch), an unknown or unpaid duel (404 duel_not_found), a ' +
      'suspended wallet (403 wallet_suspended). A join that passes these checks but loses the race to the expiry or another joiner is ' +
      'decided by the database (one conditional UPDATE; never both) and gets the same refusal after payment was verified: the ' +
      'authorization is released and never settled, so nothing is charged. ' +
      FEE_TEXT +
      ` A lost response is replayed by retrying the same request with the same authorization (${REPLAY_HEADER}: true).`,
    tags: ['paid'],
    body: duelRequestSchema,
    headers: paidCallHeaders(product),
    responses: {
      '200': {
        description: `Opened: marker ${DUEL_CREATED}, duel_id, status open, challenge_url, prompt_id, target_profile, share_answer, expires_at, leg, fee. Joined: the duel's resolution (see GET /api/duel/{duel_id}) with role, leg and fee. Both with referral_code and payment, and the receipt headers.`,
        schema: {
          type: 'object',
          properties: {
            marker: { const: DUEL_CREATED },
            duel_id: { type: 'string', format: 'uuid' },
            status: { enum: ['open', 'resolved'] },
            role: { enum: ['challenger', 'opponent'] },
            challenge_url: { type: 'string' },
            leg: legSchema,
            fee: { type: 'object', properties: { failures: { type: 'integer' }, multiplier: { type: 'number' } } },
          },
        },
        headers: RECEIPT_HEADERS,
      },
      ...PAID_CALL_RESPONSES,
      '402': { ...PAID_CALL_RESPONSES['402'], description: `${PAID_CALL_RESPONSES['402'].description} The body adds duel_fee (how the quote was made) and discount when one applied.` },
      '403': { description: 'wallet_suspended: more consecutive failures than the suspension cap (details.failures, details.suspension_cap). Nothing was charged.', schema: errorBodySchema },
      '404': { description: 'duel_not_found: no duel has this duel_id, or its challenger has not paid yet. Nothing was charged.', schema: errorBodySchema },
      '409': {
        description: `own_duel, duel_resolved, duel_mismatch (details: the duel's prompt_id and target_profile), or ${PAID_CALL_RESPONSES['409'].description} Nothing was charged.`,
        schema: errorBodySchema,
      },
      '410': { description: 'duel_expired: the duel expired without an opponent. Nothing was charged.', schema: errorBodySchema },
      '422': { description: `${PAID_CALL_RESPONSES['422'].description} A target_profile the prompt does not suit is a validation failure too.`, schema: errorBodySchema },
    },
  },
  {
    method: 'get',
    path: product.path,
    operationId: 'getDuelQuote',
    summary: 'The payment challenge of a duel entry for a wallet (quote only; never settles).',
    description: FEE_TEXT,
    tags: ['paid'],
    query: duelQuoteQuerySchema,
    responses: {
      '402': { ...PAID_CALL_RESPONSES['402'], description: 'The quote, with duel_fee.', schema: { type: 'object', properties: { duel_fee: feeSchema } } },
      '403': { description: 'wallet_suspended.', schema: errorBodySchema },
      '422': { description: 'validation_failed.', schema: errorBodySchema },
    },
  },
  {
    method: 'get',
    path: `${product.path}/prompts`,
    operationId: 'getDuelPrompts',
    summary: 'The prompts a duel\'s prompt_id is chosen from, each with its situation and the profiles it suits.',
    tags: ['duel'],
    responses: {
      '200': {
        description: 'The prompts.',
        schema: {
          type: 'object',
          properties: {
            prompts: {
              type: 'array',
              items: { type: 'object', properties: { prompt_id: { type: 'integer' }, situation: { type: 'string' }, profiles: { type: 'array', items: { type: 'string' } } } },
            },
          },
        },
      },
    },
  },
  {
    method: 'get',
    path: `${product.path}/open`,
    operationId: 'getOpenDuels',
    summary: 'The public list of open duels: paid for, unexpired, newest first.',
    description: 'No answers, no scores and no full wallets: each duel shows its prompt, profile, masked challenger, expiry and challenge_url.',
    tags: ['duel'],
    query: openDuelsQuerySchema,
    responses: {
      '200': { description: 'The open duels.', schema: { type: 'object', properties: { duels: { type: 'array', items: duelSchema }, count: { type: 'integer' } } } },
      '422': { description: 'validation_failed.', schema: errorBodySchema },
    },
  },
  {
    method: 'get',
    path: `${product.path}/{duel_id}`,
    operationId: 'getDuel',
    summary: "A duel's public state: open, resolved (outcome, both EQ scores; answers and breakdown only if both shared) or expired.",
    tags: ['duel'],
    pathParams: { duel_id: DUEL_ID_SCHEMA },
    responses: {
      '200': { description: 'The duel.', schema: duelSchema },
      '404': { description: 'duel_not_found: no duel has this id, or its challenger has not paid yet.', schema: errorBodySchema },
    },
  },
];
