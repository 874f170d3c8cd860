import { PROFILE_ID_SCHEMA, PROPOSED_TEXT_SCHEMA } from '../http/fields.schema';
import type { BodyOf, QueryOf } from '../http/ajv';

/** JSON schema of {@link ResearchRequest}. */
export const researchRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['company_name', 'site', 'why_it_fits', 'source'],
  properties: {
    company_name: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S', description: 'The prospective company.' },
    site: { type: 'string', maxLength: 500, format: 'uri', pattern: '^https?://', description: 'Its website (http or https URL).' },
    why_it_fits: { type: 'string', minLength: 1, maxLength: 2000, pattern: '\\S', description: 'Why its agents would gain from the program.' },
    source: { type: 'string', minLength: 1, maxLength: 500, pattern: '\\S', description: 'Where the operator learned this (a URL or a note).' },
  },
} as const;

/** Body of `POST /api/operator/aei-outreach/research`. */
export type ResearchRequest = BodyOf<typeof researchRequestSchema>;

const SUBJECT = { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S', description: 'The subject line.' } as const;
const BODY = { ...PROPOSED_TEXT_SCHEMA, description: 'The message text, in English; scored by the engine against profile.' } as const;
const PROFILE = { ...PROFILE_ID_SCHEMA, description: 'The profile the message should read like (GET /api/profiles).' } as const;

/** JSON schema of {@link DraftRequest}. */
export const draftRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['research_id', 'profile', 'subject', 'body'],
  properties: {
    research_id: { type: 'integer', minimum: 1, maximum: 2147483647, description: 'The research note the draft is for.' },
    profile: PROFILE,
    subject: SUBJECT,
    body: BODY,
  },
} as const;

/** Body of `POST /api/operator/aei-outreach/drafts`. */
export type DraftRequest = BodyOf<typeof draftRequestSchema>;

/** JSON schema of {@link DraftPatchRequest}: at least one field. */
export const draftPatchSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    profile: PROFILE,
    subject: SUBJECT,
    body: BODY,
    status: {
      type: 'string',
      enum: ['draft', 'approved', 'sent'],
      description: "approved: ready to send; sent: an operator sent it (the service never sends); draft: withdraw the approval. A sent draft is final.",
    },
  },
} as const;

/** Body of `PATCH /api/operator/aei-outreach/drafts/{draft_id}`. */
export type DraftPatchRequest = BodyOf<typeof draftPatchSchema>;

/** Query of `GET /api/operator/aei-outreach/drafts`. */
export const draftListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    research_id: { type: 'integer', minimum: 1, maximum: 2147483647, description: 'Only the drafts for this research note.' },
    status: { type: 'string', enum: ['draft', 'approved', 'sent'] },
  },
} as const;

/** A validated draft-list query. */
export type DraftListQuery = QueryOf<typeof draftListQuerySchema>;

/** The `{draft_id}` path parameter: a positive 32-bit integer in decimal. */
export const DRAFT_ID_SCHEMA = { type: 'integer', minimum: 1, maximum: 2147483647, description: 'The draft id (an integer; anything else is 422).' } as const;

const scoreSchema = {
  type: 'object',
  required: ['eq_score', 'passed', 'human_likeness', 'signals', 'improvement', 'scorer_version'],
  properties: {
    eq_score: { type: 'number' },
    passed: { type: 'boolean' },
    human_likeness: { type: 'number' },
    signals: { type: 'array', items: { type: 'object', properties: { code: { type: 'string' }, spans: { type: 'array', items: { type: 'object' } } } } },
    improvement: { type: 'string' },
    scorer_version: { type: 'string' },
  },
} as const;

/** JSON schema of a research note as answered. */
export const researchSchema = {
  type: 'object',
  required: ['research_id', 'company_name', 'site', 'why_it_fits', 'source', 'created_at'],
  properties: {
    research_id: { type: 'integer' },
    company_name: { type: 'string' },
    site: { type: 'string' },
    why_it_fits: { type: 'string' },
    source: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
  },
} as const;

/** JSON schema of a draft as answered. */
export const draftSchema = {
  type: 'object',
  required: ['draft_id', 'research_id', 'company_name', 'profile', 'subject', 'body', 'status', 'score', 'created_at', 'updated_at', 'approved_at', 'sent_at'],
  properties: {
    draft_id: { type: 'integer' },
    research_id: { type: 'integer' },
    company_name: { type: 'string' },
    profile: { type: 'string' },
    subject: { type: 'string' },
    body: { type: 'string' },
    status: { type: 'string', enum: ['draft', 'approved', 'sent'] },
    score: scoreSchema,
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    approved_at: { type: ['string', 'null'], format: 'date-time' },
    sent_at: { type: ['string', 'null'], format: 'date-time', description: 'When an operator marked it sent; the service sends nothing.' },
  },
} as const;

/** JSON schema of the draft list. */
export const draftListSchema = { type: 'object', required: ['drafts'], properties: { drafts: { type: 'array', items: draftSchema } } } as const;
