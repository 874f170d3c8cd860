import { AGENT_PLAN_PRODUCT, AGENT_PLANS, QUOTE_TTL_SECONDS } from '../../../shared/catalog/agent-plans';
import type { OperationSpec } from '../../http/openapi/operation';
import { COMMON_RESPONSES, errorBodySchema } from '../../http/responses.schema';
import { PAID_CALL_RESPONSES, paidCallHeaders, RECEIPT_HEADERS } from '../../payments/payment.openapi';
import { newQuoteSchema, payQuoteSchema, PLAN_CLAIM_HEADER, PLAN_CLAIM_SUBJECT, renewalQuoteSchema, retryActivationSchema, upgradeQuoteSchema } from './plans.schema';

const TAGS = ['catalog'];
const QUOTE_ID = { quote_id: { type: 'string', format: 'uuid', description: 'The quote to pay (from a quote answer).' } };
const PLAN_LIST = AGENT_PLANS.map((p) => `${p.id}: ${p.credits} credits, ${p.periodDays} days, ${p.price.usdcUnits} USDC units (${p.price.lamports} lamports)`).join('; ');

const QUOTE_SCHEMA = {
  type: 'object',
  required: ['quote_id', 'kind', 'workflow_id', 'plan_id', 'amount', 'expires_at'],
  properties: {
    quote_id: { type: 'string', format: 'uuid' },
    kind: { enum: ['new', 'renewal', 'upgrade'] },
    workflow_id: { type: 'string', format: 'uuid' },
    plan_id: { type: 'string' },
    from_plan_id: { type: 'string' },
    amount: { type: 'object', properties: { usdc_units: { type: 'integer' }, lamports: { type: 'integer' } } },
    credits: { type: 'integer' },
    period_days: { type: 'integer' },
    wallet: { type: 'string', description: 'The paying wallet, masked.' },
    expires_at: { type: 'string', format: 'date-time' },
    pay: { type: 'object' },
  },
} as const;

const ACTIVATION_SCHEMA = {
  type: 'object',
  properties: {
    status: { enum: ['active', 'failed', 'pending', 'not_paid'] },
    plan_id: { type: 'string' },
    bundle_id: { type: 'string', format: 'uuid' },
    period_ends_at: { type: 'string', format: 'date-time' },
    credits_granted: { type: 'integer', description: 'Credits this answer added (0 when they were granted before).' },
    bundle_token: { type: ['string', 'null'], description: 'The plan bundle\'s token, shown once (a new plan only).' },
    retry: { type: 'object', description: 'When failed: the retry-activation call.' },
  },
} as const;

const QUOTE_RESPONSES = {
  '201': { description: `The quote; payable until expires_at (${QUOTE_TTL_SECONDS} s). Location: its payment path.`, schema: QUOTE_SCHEMA },
  '409': { description: 'install_not_verified, plan_already_active (a new plan on an install that has one) or no_plan (a renewal or upgrade without one).', schema: errorBodySchema },
  ...COMMON_RESPONSES,
  '422': { description: 'validation_failed naming the field; install_not_found (details.fields: /workflow_id); an upgrade to a plan that is not larger (/plan_id). Nothing is stored.', schema: errorBodySchema },
};

const PAY_DESCRIPTION = [
  'Pays a quote through the one payment pipeline. Without a payment header (or with an empty X-PAYMENT) the answer is the x402 challenge (402) for exactly the quoted amount; ' +
    'sign its first entry and send PAYMENT-SIGNATURE (x402 v2), or X-PAYMENT (legacy), with the same request. The signer must be the quote\'s wallet_address.',
  'A quote past its expires_at is refused (410 quote_expired) before any payment is read. One quote settles at most once: it is bound to the first payment that reaches it; ' +
    'any other payment is refused (409 quote_already_paid) and released uncharged. The same payment sent again replays the delivery (X-Payment-Replayed: true) and never charges twice.',
  'After settlement the plan is activated: the credits are added to the install\'s plan bundle exactly once (a new plan makes the bundle and answers its token, once). ' +
    'If the activation fails after settlement, the 200 says activation.status failed; POST retry-activation finishes it without charging again.',
  `The token of a new plan is shown to the request that paid, or later to a request carrying ${PLAN_CLAIM_HEADER}: the paying wallet's EIP-191 signature of "humanlike: claim ${PLAN_CLAIM_SUBJECT}\\nnonce: <the payment's nonce>".`,
].join('\n\n');

/** OpenAPI specs of the plans an agent buys for a verified install. */
export const planOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/catalog/agent/catalog',
    operationId: 'getAgentPlanCatalog',
    summary: 'Plans an agent can buy for a verified install: credits, period and price.',
    description: `From the live catalog: ${PLAN_LIST}. Quotes are priced from it when made.`,
    tags: TAGS,
    responses: { '200': { description: 'The plans and how to quote them.', schema: { type: 'object', properties: { plans: { type: 'array' }, quote_ttl_seconds: { type: 'integer' } } } }, ...COMMON_RESPONSES },
  },
  {
    method: 'post',
    path: '/api/catalog/agent/quotes',
    operationId: 'quoteAgentPlan',
    summary: 'Quote a new plan for a verified install (201).',
    tags: TAGS,
    body: newQuoteSchema,
    responses: QUOTE_RESPONSES,
  },
  {
    method: 'post',
    path: '/api/catalog/agent/renewals',
    operationId: 'quoteAgentPlanRenewal',
    summary: 'Quote one more period of the install\'s current plan (201): its price and credits, the period extended from its end.',
    tags: TAGS,
    body: renewalQuoteSchema,
    responses: QUOTE_RESPONSES,
  },
  {
    method: 'post',
    path: '/api/catalog/agent/upgrades',
    operationId: 'quoteAgentPlanUpgrade',
    summary: 'Quote an upgrade to a larger plan (201): the difference in price and credits, for the rest of the current period.',
    tags: TAGS,
    body: upgradeQuoteSchema,
    responses: QUOTE_RESPONSES,
  },
  {
    method: 'post',
    path: '/api/catalog/agent/payments/{quote_id}',
    operationId: 'payAgentPlanQuote',
    summary: 'Pay a quote (x402); the plan is activated after settlement.',
    description: PAY_DESCRIPTION,
    tags: ['paid'],
    pathParams: QUOTE_ID,
    body: payQuoteSchema,
    headers: [
      ...paidCallHeaders(AGENT_PLAN_PRODUCT),
      { name: PLAN_CLAIM_HEADER, description: 'Optional: the payer\'s claim to the new plan bundle\'s token on a replay.', schema: { type: 'string' } },
    ],
    responses: {
      '200': { description: 'Paid and settled; activation says whether the plan is active (or failed, with the retry).', schema: { type: 'object', properties: { quote_id: { type: 'string' }, activation: ACTIVATION_SCHEMA, payment: { type: 'object' } } }, headers: RECEIPT_HEADERS },
      ...PAID_CALL_RESPONSES,
      '404': { description: 'quote_not_found', schema: errorBodySchema },
      '409': { description: 'quote_already_paid (sent without a payment, or with another payment than the one that paid it; nothing charged), payment_already_used.', schema: errorBodySchema },
      '410': { description: 'quote_expired: refused before any payment was read; nothing charged.', schema: errorBodySchema },
    },
  },
  {
    method: 'get',
    path: '/api/catalog/agent/payments/{quote_id}',
    operationId: 'getAgentPlanPayment',
    summary: 'A quote\'s payment and activation status.',
    tags: TAGS,
    pathParams: QUOTE_ID,
    responses: {
      '200': { description: 'The quote, payment (unpaid, expired, reserved, scored, settled...) and activation.', schema: { type: 'object', properties: { payment: { type: 'object' }, activation: ACTIVATION_SCHEMA } } },
      '404': { description: 'quote_not_found', schema: errorBodySchema },
      ...COMMON_RESPONSES,
    },
  },
  {
    method: 'post',
    path: '/api/catalog/agent/payments/{quote_id}/retry-activation',
    operationId: 'retryAgentPlanActivation',
    summary: 'Finish an activation that failed after settlement; never charges again.',
    tags: TAGS,
    pathParams: QUOTE_ID,
    body: retryActivationSchema,
    headers: [{ name: PLAN_CLAIM_HEADER, description: 'The payer\'s claim: needed to receive a new plan\'s token here.', schema: { type: 'string' } }],
    responses: {
      '200': { description: 'The activation (active; credits_granted 0 when it was active already).', schema: { type: 'object', properties: { activation: ACTIVATION_SCHEMA } } },
      '404': { description: 'quote_not_found', schema: errorBodySchema },
      '409': { description: 'quote_not_paid or payment_not_settled.', schema: errorBodySchema },
      ...COMMON_RESPONSES,
    },
  },
];
