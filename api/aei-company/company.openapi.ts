import type { OperationSpec } from '../http/openapi/operation';
import { COMPANY_TOKEN, tokenPattern } from '../http/program-token';
import { COMMON_RESPONSES, credentialResponses, errorBodySchema } from '../http/responses.schema';
import { bundleOutcomeRequestSchema, companyOutcomeRequestSchema, evidenceSchema, outcomeRecordedSchema } from './outcome.schema';
import { COMPANY_TERMS_VERSION } from './company-terms';
import { guideRequestSchema, guideResponseSchema } from './guide.schema';
import { GUIDE_BUNDLE_LIMIT, GUIDE_CALLER_LIMIT, GUIDE_REPLAY_SECONDS, GUIDE_WINDOW_SECONDS } from './guide.service';
import {
  companyCheckoutRequestSchema,
  companyCheckoutSchema,
  companyClaimRequestSchema,
  companyClaimSchema,
  companyTermsSchema,
  companyUsageSchema,
} from './company.schema';

const COMPANY =
  'Company program: a company whose agents talk to its customers accepts the terms, pays once by card, and gets a company token ' +
  `(${COMPANY_TOKEN.header}, shown once, stored only as its SHA-256) for server-to-server guidance, usage and outcome reports, plus a bundle ` +
  'token holding embedded-check credits. The token sits in a header only; a missing, malformed or unknown token is 401 program_token_required ' +
  'or program_token_invalid, a token not yet claimed 401 program_token_inactive (never 404). A token sees only its own company.';

/** The company token header of the company operations. */
export const COMPANY_TOKEN_HEADER = [
  { name: COMPANY_TOKEN.header, description: 'The company token from POST /api/aei/company/checkout.', schema: { type: 'string', pattern: tokenPattern(COMPANY_TOKEN) }, required: true },
] as const;

/** The 401 of a company operation. */
export const COMPANY_UNAUTHORIZED = {
  description: 'program_token_required (no header), program_token_invalid (malformed or unknown token) or program_token_inactive (payment not settled or not claimed).',
  schema: errorBodySchema,
};

/** OpenAPI specs of the company program. */
export const companyOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/aei/company/terms',
    operationId: 'getCompanyTerms',
    summary: "The company program's terms: allowances, price, period, data handling, and their content hash.",
    description: `${COMPANY} The terms are versioned (now ${COMPANY_TERMS_VERSION}); content_hash is the SHA-256 of the JSON of every other field. A claim names both.`,
    tags: ['programs'],
    responses: { '200': { description: 'The terms.', schema: companyTermsSchema }, '500': COMMON_RESPONSES['500'] },
  },
  {
    method: 'post',
    path: '/api/aei/company/checkout',
    operationId: 'startCompanyCheckout',
    summary: 'Start the purchase: the hosted card checkout URL, the company token and the bundle token (each shown once).',
    description:
      `${COMPANY} The card checkout of the card packs: the same processor, the same signed webhook (POST /api/card/webhook) and the same ` +
      'exactly-once grant keyed on the checkout session, so duplicate or reordered deliveries grant once. The company token is inactive until ' +
      'the payment settles and it is claimed. If the processor cannot create the session, nothing is kept.',
    tags: ['programs'],
    body: companyCheckoutRequestSchema,
    responses: {
      '201': { description: 'The checkout and the tokens.', schema: companyCheckoutSchema },
      '502': { description: 'card_processor_error: the processor did not create the checkout; nothing was created or charged.', schema: errorBodySchema },
      '503': { description: 'card_payments_unavailable: this server takes no card payments.', schema: errorBodySchema },
      ...COMMON_RESPONSES,
    },
  },
  {
    method: 'post',
    path: '/api/aei/company/claim',
    operationId: 'claimCompany',
    summary: 'Accept the terms and activate the company token once its payment settled (idempotent).',
    description:
      `${COMPANY} The body names the terms version and content hash accepted; other terms are 422 terms_not_current naming the field. ` +
      'Before the payment settled the answer is 409 payment_not_settled (409 payment_failed when it failed or expired) and nothing changes. ' +
      'The first successful claim starts the period; a repeated claim answers the same activation.',
    tags: ['programs'],
    headers: COMPANY_TOKEN_HEADER,
    body: companyClaimRequestSchema,
    responses: {
      '200': { description: 'The activation.', schema: companyClaimSchema },
      '401': COMPANY_UNAUTHORIZED,
      '409': { description: 'payment_not_settled or payment_failed: the token stays inactive.', schema: errorBodySchema },
      ...COMMON_RESPONSES,
    },
  },
  {
    method: 'get',
    path: '/api/aei/company/usage',
    operationId: 'getCompanyUsage',
    summary: 'What the company token has used and has left, per allowance, and its period.',
    description: `${COMPANY} Guide calls are counted per period and none are left after it; embedded-check credits are the bundle's and outlive it.`,
    tags: ['programs'],
    headers: COMPANY_TOKEN_HEADER,
    responses: { '200': { description: 'The usage.', schema: companyUsageSchema }, '401': COMPANY_UNAUTHORIZED, '500': COMMON_RESPONSES['500'] },
  },
  {
    method: 'post',
    path: '/api/aei/guide',
    operationId: 'guideDraft',
    summary: "Server-to-server guidance for an agent's draft: the engine's advice and machine-like signal codes with UTF-16 offsets for a target profile.",
    description:
      'No payment, no action on the caller\'s host, and no text kept: the draft and its situation are scored in memory and discarded, never written to ' +
      'PostgreSQL, Redis or a log, in the clear or as a plain hash; the answer holds codes, numbers and offsets, never a quote of the draft. ' +
      `Allowance: with ${COMPANY_TOKEN.header} one of the company's period guide calls (429 guide_allowance_exhausted when none is left); ` +
      `with X-BUNDLE-TOKEN a bucket of its own, ${GUIDE_BUNDLE_LIMIT} calls per ${GUIDE_WINDOW_SECONDS} s, spending no credit; without a token ` +
      `${GUIDE_CALLER_LIMIT} calls per ${GUIDE_WINDOW_SECONDS} s per caller (a keyed hash of the client address), then 429 guide_rate_limited with Retry-After. ` +
      'A token that is sent must be valid (401 otherwise); with both, the company token counts. ' +
      `Idempotency-Key (optional, 1-200 printable characters): the same key with the same inputs replays the answer for ${GUIDE_REPLAY_SECONDS} s ` +
      'using no allowance; with other inputs it is 409 idempotency_conflict. Only a keyed fingerprint (HMAC) of the inputs and the answer are kept for it.',
    tags: ['programs'],
    headers: [
      { name: COMPANY_TOKEN.header, description: 'Optional: the company token (counts against its guide calls).', schema: { type: 'string', pattern: tokenPattern(COMPANY_TOKEN) } },
      { name: 'X-BUNDLE-TOKEN', description: 'Optional: a bundle token (its own rate bucket; no credit is spent).', schema: { type: 'string' } },
      { name: 'Idempotency-Key', description: 'Optional: replays the answer for the same inputs.', schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,200}$' } },
    ],
    body: guideRequestSchema,
    responses: {
      '200': { description: 'The guidance.', schema: guideResponseSchema },
      '401': { description: 'A company or bundle token was sent that is missing, unknown or inactive.', schema: errorBodySchema },
      '409': { description: 'idempotency_conflict (the key was used with other inputs) or idempotency_in_progress (Retry-After).', schema: errorBodySchema },
      '429': { description: 'guide_rate_limited (Retry-After) or guide_allowance_exhausted.', schema: errorBodySchema },
      ...COMMON_RESPONSES,
    },
  },
  {
    method: 'post',
    path: '/api/aei/company/outcome',
    operationId: 'reportCompanyOutcome',
    summary: 'Report an outcome for a period: one rate before and after using the guidance, with the conversation counts.',
    description:
      `${COMPANY} Numbers only; one report per metric and period (a second is 409 outcome_already_reported and the first stands). ` +
      'The period starts on or before its end and ends no later than today (422 naming the field otherwise). Reports enter GET /api/operator/aei-evidence, ' +
      'where figures from fewer than five companies are withheld.',
    tags: ['programs'],
    headers: COMPANY_TOKEN_HEADER,
    body: companyOutcomeRequestSchema,
    responses: {
      '201': { description: 'Stored.', schema: outcomeRecordedSchema },
      '401': COMPANY_UNAUTHORIZED,
      '409': { description: 'outcome_already_reported.', schema: errorBodySchema },
      ...COMMON_RESPONSES,
    },
  },
  {
    method: 'post',
    path: '/api/aei/outcome',
    operationId: 'reportBundleOutcome',
    summary: 'A bundle holder reports one conversation where it used the advice: the eq_score before and after, and whether it was resolved.',
    description:
      'X-BUNDLE-TOKEN required (401 bundle_token_required or invalid_bundle_token otherwise); no credit is spent and no text is sent or kept. ' +
      'Reports enter GET /api/operator/aei-evidence, withheld while fewer than five bundles reported.',
    tags: ['programs'],
    headers: [{ name: 'X-BUNDLE-TOKEN', description: 'The bundle token.', schema: { type: 'string' }, required: true }],
    body: bundleOutcomeRequestSchema,
    responses: {
      '201': { description: 'Stored.', schema: outcomeRecordedSchema },
      '401': { description: 'bundle_token_required or invalid_bundle_token.', schema: errorBodySchema },
      ...COMMON_RESPONSES,
    },
  },
  {
    method: 'get',
    path: '/api/operator/aei-evidence',
    operationId: 'getAeiEvidence',
    summary: "Evidence across the company program: guide calls, outcome reports pooled per metric with the uplift's 95% interval, and bundle reports.",
    description: 'Any figure resting on fewer than five companies (bundles, for bundle reports) is null with suppressed: true. No company is named.',
    tags: ['operators'],
    security: 'operatorToken',
    responses: { '200': { description: 'The evidence.', schema: evidenceSchema }, ...credentialResponses('operator'), '500': COMMON_RESPONSES['500'] },
  },
];
