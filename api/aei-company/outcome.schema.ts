import { PROFILE_ID_SCHEMA } from '../http/fields.schema';
import type { BodyOf } from '../http/ajv';

/** The rates a company may report: shares of conversations, 0 to 1. */
export const OUTCOME_METRICS = ['resolution_rate', 'satisfaction_rate', 'escalation_rate'] as const;

const side = (when: string) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['rate', 'conversations'],
    description: `The metric ${when} using the guidance.`,
    properties: {
      rate: { type: 'number', minimum: 0, maximum: 1, description: 'Share of the conversations (0 to 1).' },
      conversations: { type: 'integer', minimum: 1, maximum: 100_000_000, description: 'How many conversations the rate is over.' },
    },
  }) as const;

/** JSON schema of {@link CompanyOutcomeRequest}. */
export const companyOutcomeRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['metric', 'period', 'before', 'after'],
  properties: {
    metric: {
      type: 'string',
      enum: OUTCOME_METRICS,
      description: 'resolution_rate (resolved without a human), satisfaction_rate (rated satisfied) or escalation_rate (handed to a human; lower is better).',
    },
    period: {
      type: 'object',
      additionalProperties: false,
      required: ['start', 'end'],
      description: "The period the 'after' figures cover (dates, UTC); start on or before end, end not in the future.",
      properties: { start: { type: 'string', format: 'date' }, end: { type: 'string', format: 'date' } },
    },
    before: side('before'),
    after: side('after'),
  },
} as const;

/** Body of `POST /api/aei/company/outcome`. */
export type CompanyOutcomeRequest = BodyOf<typeof companyOutcomeRequestSchema>;

/** JSON schema of {@link BundleOutcomeRequest}: one conversation, numbers only. */
export const bundleOutcomeRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['profile', 'advice_applied', 'eq_score_before', 'eq_score_after'],
  properties: {
    profile: { ...PROFILE_ID_SCHEMA, description: 'The profile the advice was for.' },
    advice_applied: { type: 'boolean', description: 'Whether the reply sent followed the advice.' },
    eq_score_before: { type: 'number', minimum: 0, maximum: 100, description: "The draft's eq_score before the advice." },
    eq_score_after: { type: 'number', minimum: 0, maximum: 100, description: "The sent reply's eq_score." },
    resolved: { type: 'boolean', description: "Whether the conversation reached the customer's goal." },
  },
} as const;

/** Body of `POST /api/aei/outcome`. */
export type BundleOutcomeRequest = BodyOf<typeof bundleOutcomeRequestSchema>;

/** JSON schema of an outcome's answer (201). */
export const outcomeRecordedSchema = {
  type: 'object',
  required: ['outcome_id', 'uplift'],
  properties: {
    outcome_id: { type: 'string', format: 'uuid' },
    uplift: { type: 'number', description: 'after - before (rate points for a company, EQ points for a bundle report).' },
  },
} as const;

const suppressible = (schema: object, what: string) => ({ anyOf: [schema, { type: 'null' }], description: `${what}; null when fewer than five companies are behind it.` });

/** JSON schema of `GET /api/operator/aei-evidence`. */
export const evidenceSchema = {
  type: 'object',
  required: ['min_companies', 'companies', 'guide_calls', 'outcomes', 'bundle_outcomes', 'definitions'],
  properties: {
    min_companies: { type: 'integer' },
    companies: { type: 'object', properties: { active: { type: 'integer' }, reporting: { type: 'integer' } } },
    guide_calls: {
      type: 'object',
      properties: { companies: suppressible({ type: 'integer' }, 'Companies that called the guide'), total: suppressible({ type: 'integer' }, 'Their guide calls'), suppressed: { type: 'boolean' } },
    },
    outcomes: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          metric: { type: 'string' },
          companies: suppressible({ type: 'integer' }, 'Companies reporting'),
          reports: suppressible({ type: 'integer' }, 'Reports'),
          conversations_before: suppressible({ type: 'integer' }, 'Conversations before'),
          conversations_after: suppressible({ type: 'integer' }, 'Conversations after'),
          rate_before: suppressible({ type: 'number' }, 'Pooled rate before'),
          rate_after: suppressible({ type: 'number' }, 'Pooled rate after'),
          uplift: suppressible({ type: 'number' }, 'rate_after - rate_before'),
          interval95: suppressible({ type: 'array', items: { type: 'number' } }, '95% interval of the uplift'),
          suppressed: { type: 'boolean' },
        },
      },
    },
    bundle_outcomes: {
      type: 'object',
      properties: {
        bundles: suppressible({ type: 'integer' }, 'Bundles reporting'),
        reports: suppressible({ type: 'integer' }, 'Reports'),
        advice_applied: suppressible({ type: 'integer' }, 'Reports where the advice was applied'),
        mean_uplift: suppressible({ type: 'number' }, 'Mean eq_score_after - eq_score_before where the advice was applied'),
        interval95: suppressible({ type: 'array', items: { type: 'number' } }, '95% interval of that mean'),
        suppressed: { type: 'boolean' },
      },
    },
    definitions: { type: 'object', additionalProperties: { type: 'string' } },
  },
} as const;
