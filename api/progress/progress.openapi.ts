import { PRODUCT_TERMS, PRODUCTS } from '../../shared/products';
import type { OperationSpec } from '../http/openapi/operation';
import { PAID_CALL_RESPONSES, RECEIPT_HEADERS, paidCallHeaders, pricePhrase } from '../payments/payment.openapi';
import { REPLAY_HEADER } from '../payments/quote';
import { progressRequestSchema } from './progress.schema';
import { PAID_EITHER_WAY } from './progress.service';

const product = PRODUCTS.progress;

const num = { type: 'number' };
const progressResponseSchema = {
  type: 'object',
  required: [
    'result_id',
    'empty',
    'sessions',
    'main_profile',
    'history',
    'trend',
    'pass_streak',
    'percentile',
    'dimension_gaps',
    'style_drift',
    'not_a_factual_accuracy_check',
    'improvement',
    'charts',
    'referral_code',
  ],
  properties: {
    result_id: { type: 'string', format: 'uuid' },
    empty: { type: 'boolean', description: 'True when the wallet has no scored session: every section is empty (the call is still paid).' },
    sessions: { type: 'object', properties: { total: { type: 'integer' }, in_report: { type: 'integer' }, window: { type: 'integer' } } },
    main_profile: { type: ['string', 'null'], description: 'The profile the wallet used most.' },
    history: {
      type: 'array',
      description: 'The newest sessions, oldest first (at most history_limit).',
      items: { type: 'object', properties: { settled_at: { type: 'string' }, product: { type: 'string' }, profile: { type: ['string', 'null'] }, eq_score: num, passed: { type: ['boolean', 'null'] } } },
    },
    history_limit: { type: 'integer' },
    trend: {
      type: ['object', 'null'],
      description: 'Least-squares slope of the EQ score per session, and the averages of the first and last sessions compared.',
      properties: { direction: { enum: ['improving', 'declining', 'flat'] }, slope_per_session: num, first_average: num, last_average: num, compared: { type: 'integer' } },
    },
    pass_streak: { type: 'object', properties: { current: { type: 'integer' }, best: { type: 'integer' } } },
    percentile: {
      type: ['object', 'null'],
      description: "Against the other wallets (bots) on the wallet's main profile, by average EQ score.",
      properties: { profile: { type: 'string' }, value: { type: ['number', 'null'] }, other_bots: { type: 'integer' }, basis: { type: 'string' } },
    },
    dimension_gaps: { type: 'object', description: 'Per text dimension on the main profile: mean measured - target, mean absolute gap, sessions.' },
    style_drift: {
      type: 'object',
      description: 'Consistency check: each session against the persona targets frozen when it was scored; a dimension outside its tolerance band is out of band.',
    },
    not_a_factual_accuracy_check: { type: 'string', description: 'Says what the report is not: a style check, not a factual-accuracy check.' },
    improvement: { type: 'string', description: 'One next step.' },
    charts: {
      type: 'object',
      required: ['trend_svg', 'dimension_gaps_svg'],
      description:
        'The report as pictures, drawn on the server: standalone SVG documents (image/svg+xml) to save as .svg or put in a page. ' +
        'trend_svg: the EQ score of each session in history, oldest first, passes and fails marked, with the least-squares line; ' +
        'dimension_gaps_svg: dimension_gaps as bars either side of zero (below the target left, above it right). Null when there is ' +
        'nothing to draw (no scored session; no session with frozen targets on the main profile).',
      properties: { trend_svg: { type: ['string', 'null'] }, dimension_gaps_svg: { type: ['string', 'null'] } },
    },
    referral_code: { type: 'string' },
    reward_bundle_tokens: { type: 'array', items: { type: 'string' } },
    payment: { type: 'object' },
  },
};

/** OpenAPI specs of the progress-report routes. */
export const progressOperations: OperationSpec[] = [
  {
    method: 'post',
    path: product.path,
    operationId: 'postProgress',
    summary: `Progress report of the paying wallet (${pricePhrase(product)}) over x402.`,
    description:
      "From the wallet's scored sessions on the ledger (its paid simulate sessions and duel legs: the only rows with an EQ score; " +
      "a stress test, a rewrite or a script check is not one, and a basic session paid with a bundle credit is not on the ledger): " +
      "score history, trend, pass streak, percentile against the other bots on the wallet's main " +
      'profile (the one it used most), dimension gaps, and a style-drift consistency check of each session against the ' +
      'persona targets frozen when it was scored (sessions settled before targets were recorded are counted as without ' +
      `targets). Not a factual-accuracy check. ${PAID_EITHER_WAY} Computed on the exports queue. Loyalty: ` +
      `${PRODUCT_TERMS.loyaltyDiscountPct} percent off from ${PRODUCT_TERMS.loyaltyThresholdSessions} settled paid sessions ` +
      `(the 402 body names the discount). A lost response is replayed with the same authorization (${REPLAY_HEADER}: true).`,
    tags: ['paid'],
    body: progressRequestSchema,
    headers: paidCallHeaders(product),
    responses: {
      '200': { description: 'The report, with the receipt headers.', schema: progressResponseSchema, headers: RECEIPT_HEADERS },
      ...PAID_CALL_RESPONSES,
    },
  },
  {
    method: 'get',
    path: product.path,
    operationId: 'getProgressQuote',
    summary: `The payment challenge of a progress report (quote only; never settles). ${PAID_EITHER_WAY}`,
    tags: ['paid'],
    responses: { '402': PAID_CALL_RESPONSES['402'] },
  },
];
