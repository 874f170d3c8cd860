import { COMPANY_PLAN } from '../../shared/products';
import { COMPANY_TOKEN, tokenPattern } from '../http/program-token';
import { COMPANY_TERMS_VERSION } from './company-terms';
import type { BodyOf } from '../http/ajv';

/** JSON schema of {@link CompanyCheckoutRequest}: strict, no amount is ever sent. */
export const companyCheckoutRequestSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    plan: { type: 'string', enum: [COMPANY_PLAN.id], default: COMPANY_PLAN.id, description: 'The plan (one for now); the price comes from the catalog.' },
  },
} as const;

/** Body of `POST /api/aei/company/checkout`. */
export type CompanyCheckoutRequest = BodyOf<typeof companyCheckoutRequestSchema>;

/** JSON schema of {@link CompanyClaimRequest}. */
export const companyClaimRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['terms_version', 'terms_hash'],
  properties: {
    terms_version: { type: 'string', minLength: 1, maxLength: 100, description: `The version of the terms accepted (now ${COMPANY_TERMS_VERSION}).` },
    terms_hash: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'Their content_hash from GET /api/aei/company/terms.' },
  },
} as const;

/** Body of `POST /api/aei/company/claim`. */
export type CompanyClaimRequest = BodyOf<typeof companyClaimRequestSchema>;

const allowanceNumbers = {
  type: 'object',
  required: ['guide_calls', 'embedded_check_credits', 'pilot_sponsorship_slots'],
  properties: {
    guide_calls: { type: 'integer', description: 'POST /api/aei/guide calls with the company token per period.' },
    embedded_check_credits: { type: 'integer', description: 'Basic credits on the bundle token issued with the checkout (POST /api/embed/check).' },
    pilot_sponsorship_slots: { type: 'integer', description: 'Agents the company may sponsor in the pilot during the period.' },
  },
} as const;

const priceSchema = {
  type: 'object',
  required: ['amount_cents', 'currency', 'display'],
  properties: { amount_cents: { type: 'integer' }, currency: { type: 'string' }, display: { type: 'string' } },
} as const;

/** JSON schema of `GET /api/aei/company/terms`. */
export const companyTermsSchema = {
  type: 'object',
  required: ['version', 'title', 'plan', 'price', 'period', 'allowances', 'data_handling', 'conditions', 'content_hash'],
  properties: {
    version: { type: 'string', examples: [COMPANY_TERMS_VERSION] },
    title: { type: 'string' },
    plan: { type: 'string' },
    price: priceSchema,
    period: { type: 'object', required: ['days', 'starts'], properties: { days: { type: 'integer' }, starts: { type: 'string' } } },
    allowances: allowanceNumbers,
    data_handling: { type: 'array', items: { type: 'string' } },
    conditions: { type: 'array', items: { type: 'string' } },
    content_hash: { type: 'string', description: 'SHA-256 (hex) of the JSON of every other field, in this order; send it with the version to claim.' },
  },
} as const;

/** JSON schema of the checkout's answer (201). */
export const companyCheckoutSchema = {
  type: 'object',
  required: ['checkout_url', 'checkout_session_id', 'company_token', 'bundle_token', 'token_note', 'plan', 'price', 'allowances', 'terms', 'status', 'expires_at'],
  properties: {
    checkout_url: { type: 'string', description: 'The hosted card checkout page.' },
    checkout_session_id: { type: 'string' },
    company_token: { type: 'string', pattern: tokenPattern(COMPANY_TOKEN), description: `Shown once: the ${COMPANY_TOKEN.header} of every company call. Inactive until the payment settles and POST /api/aei/company/claim.` },
    bundle_token: { type: 'string', description: 'Shown once: the X-BUNDLE-TOKEN holding the embedded-check credits (granted when the payment settles).' },
    token_note: { type: 'string' },
    plan: { type: 'string' },
    price: priceSchema,
    allowances: allowanceNumbers,
    terms: { type: 'object', required: ['version', 'content_hash'], properties: { version: { type: 'string' }, content_hash: { type: 'string' } } },
    status: { type: 'string', enum: ['pending'] },
    expires_at: { type: ['string', 'null'], format: 'date-time' },
  },
} as const;

const periodSchema = {
  type: 'object',
  required: ['starts_at', 'ends_at', 'days', 'ended'],
  properties: {
    starts_at: { type: 'string', format: 'date-time' },
    ends_at: { type: 'string', format: 'date-time' },
    days: { type: 'integer' },
    ended: { type: 'boolean' },
  },
} as const;

/** JSON schema of the claim's answer. */
export const companyClaimSchema = {
  type: 'object',
  required: ['status', 'activated_at', 'terms', 'period', 'allowances'],
  properties: {
    status: { type: 'string', enum: ['active'] },
    activated_at: { type: 'string', format: 'date-time', description: 'The first claim; a repeated claim answers the same.' },
    terms: { type: 'object', required: ['version', 'content_hash'], properties: { version: { type: 'string' }, content_hash: { type: 'string' } } },
    period: periodSchema,
    allowances: allowanceNumbers,
  },
} as const;

const allowanceUse = {
  type: 'object',
  required: ['total', 'used', 'left'],
  properties: { total: { type: 'integer' }, used: { type: 'integer' }, left: { type: 'integer' } },
} as const;

/** JSON schema of `GET /api/aei/company/usage`. */
export const companyUsageSchema = {
  type: 'object',
  required: ['period', 'allowances', 'company_id'],
  properties: {
    company_id: { type: 'string', format: 'uuid', description: "The company's id: give it to the operators to link the agents you sponsor in the pilot to your slots." },
    period: periodSchema,
    allowances: {
      type: 'object',
      required: ['guide_calls', 'embedded_check_credits', 'pilot_sponsorship_slots'],
      properties: {
        guide_calls: { ...allowanceUse, description: 'Counted per period; none are left once it ended.' },
        embedded_check_credits: { ...allowanceUse, description: "The bundle's basic credits; they outlive the period." },
        pilot_sponsorship_slots: { ...allowanceUse, description: 'Pilot sponsors linked to this company by an operator (POST /api/operator/aei/sponsor with company_id); each takes one slot.' },
      },
    },
  },
} as const;
