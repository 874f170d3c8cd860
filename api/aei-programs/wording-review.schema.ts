import type { FieldProblem } from '../../shared/errors';
import { WORDING_REVIEW_CONSENT } from './consent-texts';
import { tokenPattern, WORDING_TOKEN } from '../http/program-token';
import { SCALE_MAX, SCALE_MIN, SCALES, scaleRatingsSchema } from './rating-scales';
import type { BodyOf } from '../http/ajv';

const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** POST /api/aei/wording-review/sessions: the consent. */
export const wordingConsentRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['consent', 'consent_version'],
  properties: {
    consent: { type: 'boolean', const: true, description: 'Must be true: the rater accepts the consent text of consent_version.' },
    consent_version: {
      type: 'string',
      const: WORDING_REVIEW_CONSENT.version,
      description: `The version of the consent text accepted, as GET /api/aei/wording-review/consent serves it (now ${WORDING_REVIEW_CONSENT.version}).`,
    },
  },
} as const;

/** The validated consent. */
export type WordingConsentRequest = BodyOf<typeof wordingConsentRequestSchema>;

/**
 * The code of a failed consent: missing or false consent, or a version that is not the current one.
 * @param fields - the failing fields
 * @returns the refined code and message, or undefined
 */
export function refineWordingConsent(fields: FieldProblem[]): { code: string; message: string } | undefined {
  if (fields.some((f) => f.path === '/consent')) return { code: 'consent_required', message: 'Set "consent": true to take part; nothing is stored without it.' };
  if (fields.some((f) => f.path === '/consent_version')) {
    return { code: 'consent_version_not_current', message: `Read and accept the current consent text (version ${WORDING_REVIEW_CONSENT.version}).` };
  }
  return undefined;
}

/** POST /api/aei/wording-review/ratings. */
export const wordingRatingRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['item_id', 'ratings'],
  properties: {
    item_id: { type: 'string', pattern: UUID_PATTERN, description: 'An item from next_items.' },
    ratings: scaleRatingsSchema,
  },
} as const;

/** The validated rating. */
export type WordingRatingRequest = BodyOf<typeof wordingRatingRequestSchema>;

const scalesSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['id', 'question', 'min', 'max'],
    properties: { id: { enum: [...SCALES] }, question: { type: 'string' }, min: { const: SCALE_MIN }, max: { const: SCALE_MAX } },
  },
} as const;

/** GET /api/aei/wording-review/consent. */
export const wordingConsentSchema = {
  type: 'object',
  required: ['version', 'text', 'scales'],
  properties: { version: { type: 'string' }, text: { type: 'string' }, scales: scalesSchema },
} as const;

const nextItemsSchema = {
  type: 'array',
  description: 'Items to rate, each once: an opaque id and the reply text only (no author, profile, source or time).',
  items: { type: 'object', required: ['item_id', 'text'], properties: { item_id: { type: 'string', format: 'uuid' }, text: { type: 'string' } } },
} as const;

/** The session as its rater sees it. */
export const wordingSessionSchema = {
  type: 'object',
  required: ['session', 'scales', 'next_items'],
  properties: {
    session: {
      type: 'object',
      required: ['created_at', 'consent_version', 'rated', 'counts_for_calibration'],
      properties: {
        created_at: { type: 'string', format: 'date-time' },
        consent_version: { type: 'string' },
        rated: { type: 'integer', description: 'Items rated in this session (attention checks included).' },
        counts_for_calibration: {
          type: 'boolean',
          description: 'False once two attention checks were answered otherwise than they ask; the rater may go on, nothing else changes.',
        },
      },
    },
    scales: scalesSchema,
    next_items: nextItemsSchema,
  },
} as const;

/** POST /api/aei/wording-review/sessions: the session with its token, shown this once. */
export const createdWordingSessionSchema = {
  ...wordingSessionSchema,
  required: [...wordingSessionSchema.required, 'token'],
  properties: {
    ...wordingSessionSchema.properties,
    token: {
      type: 'string',
      pattern: tokenPattern(WORDING_TOKEN),
      description: `Send it in ${WORDING_TOKEN.header} on every other call. Shown only here; the service keeps its SHA-256.`,
    },
  },
} as const;

/** POST /api/aei/wording-review/ratings: what was stored, and what to rate next. */
export const wordingRatingResultSchema = {
  type: 'object',
  required: ['item_id', 'recorded', 'next_items'],
  properties: { item_id: { type: 'string', format: 'uuid' }, recorded: { const: true }, next_items: nextItemsSchema },
} as const;

/** DELETE /api/aei/wording-review/session. */
export const wordingDeletedSchema = {
  type: 'object',
  required: ['deleted'],
  properties: {
    deleted: {
      type: 'object',
      required: ['session', 'ratings', 'token'],
      properties: {
        session: { const: 1 },
        ratings: { type: 'integer', description: 'Ratings deleted with the session.' },
        token: { const: true, description: 'The token hash is gone: the token now answers 401.' },
      },
    },
  },
} as const;

const rowSchema = {
  type: 'object',
  required: ['dimension', 'engine_field', 'ratings', 'raters', 'alpha_units', 'alpha', 'items', 'spearman', 'ci95', 'counts'],
  properties: {
    dimension: { enum: [...SCALES] },
    engine_field: { type: 'string', description: 'The engine output the ratings are compared with (0..1).' },
    ratings: { type: ['integer', 'null'] },
    raters: { type: ['integer', 'null'] },
    alpha_units: { type: ['integer', 'null'], description: 'Items rated by two or more raters.' },
    alpha: { type: ['number', 'null'], description: "Krippendorff's alpha, ordinal; null when undefined (or withheld)." },
    items: { type: ['integer', 'null'], description: 'Items with at least three raters: the pairs of the correlation.' },
    spearman: { type: ['number', 'null'], description: "Spearman's rho of the engine's value against the raters' mean rating." },
    ci95: {
      type: ['object', 'null'],
      properties: { low: { type: 'number' }, high: { type: 'number' } },
      description: 'Its 95% interval: Fisher z with standard error sqrt(1.06 / (n - 3)); null below 4 items or with |rho| = 1.',
    },
    counts: { type: 'boolean', description: 'True only where alpha is at least 0.667: the scale counts as evidence.' },
  },
} as const;

/** GET /api/admin/aei/wording-review. */
export const wordingReportSchema = {
  type: 'object',
  required: ['generated_at', 'method', 'sessions', 'excluded_sessions', 'raters', 'items_rated', 'min_alpha', 'min_raters_per_item', 'dimensions'],
  properties: {
    generated_at: { type: 'string', format: 'date-time' },
    method: { type: 'string' },
    sessions: { type: 'integer', description: 'Rater sessions (consents not withdrawn).' },
    excluded_sessions: { type: 'integer', description: 'Sessions left out of calibration for two failed attention checks.' },
    raters: { type: 'integer', description: 'Sessions with ratings in the calibration set.' },
    items_rated: { type: 'integer' },
    min_alpha: { type: 'number' },
    min_raters_per_item: { type: 'integer' },
    dimensions: { type: 'array', items: rowSchema },
  },
} as const;

/** GET /api/validation/human-agreement. */
export const publicAgreementSchema = {
  type: 'object',
  required: ['generated_at', 'method', 'min_people', 'min_alpha', 'min_raters_per_item', 'scale', 'raters', 'items_rated', 'suppressed', 'dimensions'],
  properties: {
    generated_at: { type: 'string', format: 'date-time' },
    method: { type: 'string' },
    min_people: { type: 'integer', description: 'With fewer raters than this, every figure is null and suppressed is true.' },
    min_alpha: { type: 'number' },
    min_raters_per_item: { type: 'integer' },
    scale: { type: 'object', properties: { min: { const: SCALE_MIN }, max: { const: SCALE_MAX } } },
    raters: { type: ['integer', 'null'] },
    items_rated: { type: ['integer', 'null'] },
    suppressed: { type: 'boolean' },
    dimensions: { type: 'array', items: rowSchema },
  },
} as const;
