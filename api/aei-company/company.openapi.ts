import type { OperationSpec } from '../http/openapi/operation';
import { COMPANY_TOKEN, tokenPattern } from '../http/program-token';
import { COMMON_RESPONSES, errorBodySchema } from '../http/responses.schema';
import { COMPANY_TERMS_VERSION } from './company-terms';
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
];
