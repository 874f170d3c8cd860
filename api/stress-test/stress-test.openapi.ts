import { PRODUCTS, PRODUCT_TERMS } from '../../shared/products';
import type { OperationSpec } from '../http/openapi/operation';
import { PAID_CALL_RESPONSES, RECEIPT_HEADERS, paidCallHeaders, pricePhrase } from '../payments/payment.openapi';
import { REPLAY_HEADER } from '../payments/quote';
import { stressTestQuoteQuerySchema, stressTestRequestSchema } from './stress-test.schema';

const product = PRODUCTS.stressTest;

const matchupSchema = {
  type: 'object',
  required: ['profile', 'eq_score', 'passed'],
  properties: { profile: { type: 'string' }, eq_score: { type: 'number', minimum: 0, maximum: 100 }, passed: { type: 'boolean' } },
};

const promptFixSchema = {
  type: 'object',
  required: ['profile', 'eq_score', 'passed', 'suggested_prompt_addition', 'main_gaps', 'improvement'],
  properties: {
    profile: { type: 'string' },
    eq_score: { type: 'number', minimum: 0, maximum: 100 },
    passed: { type: 'boolean' },
    suggested_prompt_addition: { type: 'string', description: "Text to add to the agent's system prompt for this profile." },
    main_gaps: {
      type: 'array',
      description: 'At most 3 dials outside their tolerance band (or timing off its window), costliest first.',
      items: {
        type: 'object',
        properties: {
          dimension: { type: 'string', description: 'empathy, formality, directness, hesitation or timing.' },
          measured: { type: 'number' },
          target: { type: 'number', description: "The profile's target (timing: the expected delay in seconds)." },
          delta: { type: 'number', description: 'measured - target.' },
          direction: { enum: ['raise', 'lower'] },
          points_lost: { type: 'number', description: 'EQ-score points this gap costs (100 x weight x (1 - fit)).' },
        },
      },
    },
    machine_signals: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, hard_fail: { type: 'boolean' } } } },
    improvement: { type: 'string' },
    suggested_delay_seconds: { type: ['object', 'null'] },
  },
};

const weaknessMapSchema = {
  type: 'object',
  required: [
    'result_id', 'scorer_version', 'human_likeness', 'profile_count', 'passed_count', 'pass_rate', 'mean_eq_score',
    'profiles', 'strongest', 'weakest', 'prompt_fixes', 'improvement', 'referral_code', 'payment',
  ],
  properties: {
    result_id: { type: 'string', format: 'uuid' },
    scorer_version: { type: 'string' },
    human_likeness: { type: 'number', minimum: 0, maximum: 100, description: 'Profile-independent.' },
    profile_count: { const: 28 },
    passed_count: { type: 'integer', minimum: 0, maximum: 28 },
    pass_rate: { type: 'number', minimum: 0, maximum: 1, description: 'passed_count / profile_count.' },
    mean_eq_score: { type: 'number', minimum: 0, maximum: 100, description: 'Mean EQ score over the 28 profiles (1 decimal).' },
    profiles: { type: 'array', items: matchupSchema, minItems: 28, maxItems: 28, description: "Every profile's EQ score and pass, best first." },
    strongest: { type: 'array', items: matchupSchema, description: 'The 3 best matchups, best first.' },
    weakest: { type: 'array', items: matchupSchema, description: 'The 3 worst matchups, worst first.' },
    prompt_fixes: { type: 'array', items: promptFixSchema, description: 'For the 3 worst profiles, worst first.' },
    improvement: { type: 'string', description: 'One next step: the weakest matchup and its fix.' },
    referral_code: { type: 'string', description: "This wallet's own referral code (section 8)." },
    reward_bundle_tokens: { type: 'array', items: { type: 'string' }, description: 'Referral rewards due to this wallet (first delivery only).' },
    reward_bundles: { type: 'array', items: { type: 'object' } },
    payment: {
      type: 'object',
      description: 'The settled payment.',
      properties: { network: { type: 'string' }, asset: { type: 'string' }, amount: { type: 'string' }, transaction: { type: 'string' } },
    },
  },
};

/** OpenAPI specs of the stress-test routes. */
export const stressTestOperations: OperationSpec[] = [
  {
    method: 'post',
    path: product.path,
    operationId: 'postStressTest',
    summary: `Stress test (${pricePhrase(product)}): one reply scored against all 28 profiles, with the weakness map.`,
    description:
      'The reply is measured once and compared with every profile on the stress queue. The answer is the weakness map: ' +
      "each profile's EQ score and pass (best first), the strongest and weakest matchups, the pass rate across all " +
      'profiles, the mean EQ score, and prompt fixes (suggested_prompt_addition and the main gaps) for the 3 worst ' +
      'profiles. Without payment: 402 with the live quote for wallet_address (the body names the discount when one ' +
      `applied: ${PRODUCT_TERMS.loyaltyDiscountPct} percent from ${PRODUCT_TERMS.loyaltyThresholdSessions} settled paid ` +
      'sessions); the payment must match that quote. Paid per call with PAYMENT-SIGNATURE (x402 v2), legacy X-PAYMENT ' +
      `or tx_hash; settled only after the map exists. The same authorization and request replay the result (${REPLAY_HEADER}: ` +
      'true), never charged twice; with another request it is 409 payment_already_used. The ledger row of a stress ' +
      'test records the weakest profile as its profile, the mean EQ score over the 28 profiles as its score, and ' +
      'passed only when every profile passed. The text is never stored.',
    tags: ['paid'],
    body: stressTestRequestSchema,
    headers: paidCallHeaders(product),
    responses: {
      '200': { description: 'The weakness map, with the receipt headers.', schema: weaknessMapSchema, headers: RECEIPT_HEADERS },
      ...PAID_CALL_RESPONSES,
    },
  },
  {
    method: 'get',
    path: product.path,
    operationId: 'getStressTestQuote',
    summary: 'The payment challenge of a stress test (quote only; never settles).',
    tags: ['paid'],
    query: stressTestQuoteQuerySchema,
    responses: { '402': PAID_CALL_RESPONSES['402'] },
  },
];
