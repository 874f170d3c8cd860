import type { FieldProblem } from '../../shared/errors';
import { DIMENSION_QUESTIONS, RATING_MAX, RATING_MIN, REVIEW_DIMENSIONS, SAMPLE_IDS } from './review-samples';
import type { BodyOf, QueryOf } from '../http/ajv';

/** Samples a session holds when the consent does not say. */
export const DEFAULT_SAMPLE_COUNT = 6;

/** Longest optional comment per rated sample (characters). It is kept for operators, never published. */
export const MAX_COMMENT_CHARS = 1000;

/** Shape of a session secret: `crs_` and 43 base64url characters (256 bits). */
export const SESSION_SECRET_PATTERN = '^crs_[A-Za-z0-9_-]{43}$';

/** POST /api/community-review/sessions: the consent. */
export const consentRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['consent'],
  properties: {
    consent: {
      type: 'boolean',
      const: true,
      description:
        'Must be true: the person agrees that their ratings (numbers only) are stored without any identity and published in aggregate ' +
        '(GET /api/community-review/summary) and per session (GET /api/community-review/sessions/{session_id}).',
    },
    sample_count: {
      type: 'integer',
      minimum: 1,
      maximum: SAMPLE_IDS.length,
      default: DEFAULT_SAMPLE_COUNT,
      description: `How many sample replies to rate, 1 to ${SAMPLE_IDS.length} (default ${DEFAULT_SAMPLE_COUNT}); drawn at random from the fixed set.`,
    },
  },
} as const;

/** The validated consent (bodies get no defaults from the validator: see DEFAULT_SAMPLE_COUNT). */
export type ConsentRequest = BodyOf<typeof consentRequestSchema>;

/**
 * Picks the code of a failed consent: a missing or false consent says so.
 * @param fields - the failing fields
 * @returns the refined code and message, or undefined
 */
export function refineConsent(fields: FieldProblem[]): { code: string; message: string } | undefined {
  if (fields.some((f) => f.path === '/consent')) {
    return { code: 'consent_required', message: 'Set "consent": true to take part; nothing is stored without it.' };
  }
  return undefined;
}

const ratingSchema = { type: 'integer', minimum: RATING_MIN, maximum: RATING_MAX } as const;

/** POST /api/community-review/sessions/{session_id}/responses. */
export const responsesRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['session_secret', 'responses'],
  properties: {
    session_secret: {
      type: 'string',
      pattern: SESSION_SECRET_PATTERN,
      description: 'The secret returned once when the session was created.',
    },
    responses: {
      type: 'array',
      minItems: 1,
      maxItems: SAMPLE_IDS.length,
      description: 'One entry per rated sample, each sample at most once per request. Rating a sample again replaces its earlier rating.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['sample_id', 'ratings'],
        properties: {
          sample_id: { type: 'string', enum: [...SAMPLE_IDS], description: 'A sample of this session.' },
          ratings: {
            type: 'object',
            additionalProperties: false,
            minProperties: 1,
            description: `At least one dimension, each an integer ${RATING_MIN} to ${RATING_MAX}.`,
            properties: Object.fromEntries(REVIEW_DIMENSIONS.map((d) => [d, { ...ratingSchema, description: DIMENSION_QUESTIONS[d] }])),
          },
          comment: {
            type: 'string',
            maxLength: MAX_COMMENT_CHARS,
            description: 'Optional note for the operators. Never returned by any public endpoint.',
          },
        },
      },
    },
  },
} as const;

/** The validated responses body. */
export type ResponsesRequest = BodyOf<typeof responsesRequestSchema>;

/** One validated response. */
export type ResponseInput = ResponsesRequest['responses'][number];

/** Query of GET /api/community-review/sessions. */
export const sessionListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Sessions, newest first, 1 to 100 (default 20).' },
  },
} as const;

/** A validated session-list query. */
export type SessionListQuery = QueryOf<typeof sessionListQuerySchema>;

const profileRef = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'string' }, name: { type: 'string' } },
} as const;

const dimensionRatings = {
  type: 'object',
  properties: Object.fromEntries(REVIEW_DIMENSIONS.map((d) => [d, ratingSchema])),
} as const;

const engineViewSchema = {
  type: ['object', 'null'],
  description: "The engine's scores of the sample; null until the sample is rated in this session (ratings are given blind).",
  required: ['scorer_version', 'human_likeness', 'eq_score', 'passed', 'measures'],
  properties: {
    scorer_version: { type: 'string' },
    human_likeness: { type: 'number', description: '0 to 100, profile-free.' },
    eq_score: { type: 'number', description: "0 to 100, against the sample's profile." },
    passed: { type: 'boolean' },
    measures: {
      type: 'object',
      required: ['empathy', 'formality', 'directness', 'hesitation'],
      properties: { empathy: { type: 'number' }, formality: { type: 'number' }, directness: { type: 'number' }, hesitation: { type: 'number' } },
      description: 'Profile-free measures, 0 to 1.',
    },
  },
} as const;

/** A session as GET shows it (and POST, with the secret). */
export const reviewSessionSchema = {
  type: 'object',
  required: ['session_id', 'created_at', 'scale', 'dimensions', 'samples', 'progress', 'responses_url'],
  properties: {
    session_id: { type: 'string', format: 'uuid' },
    created_at: { type: 'string', format: 'date-time' },
    scale: {
      type: 'object',
      required: ['min', 'max'],
      properties: { min: { const: RATING_MIN }, max: { const: RATING_MAX } },
    },
    dimensions: {
      type: 'array',
      items: { type: 'object', required: ['id', 'question'], properties: { id: { enum: [...REVIEW_DIMENSIONS] }, question: { type: 'string' } } },
    },
    samples: {
      type: 'array',
      items: {
        type: 'object',
        required: ['sample_id', 'profile', 'incoming', 'reply', 'response_delay_seconds', 'rated', 'ratings', 'engine'],
        properties: {
          sample_id: { type: 'string' },
          profile: profileRef,
          incoming: { type: 'string', description: 'The message the reply answers (written by the service).' },
          reply: { type: 'string', description: 'The reply to rate (written by the service; never a caller’s text).' },
          response_delay_seconds: { type: 'number' },
          rated: { type: 'boolean' },
          ratings: { ...dimensionRatings, type: ['object', 'null'], description: "This session's ratings of the sample, or null." },
          engine: engineViewSchema,
        },
      },
    },
    progress: {
      type: 'object',
      required: ['samples', 'rated'],
      properties: { samples: { type: 'integer' }, rated: { type: 'integer' } },
    },
    responses_url: { type: 'string', description: 'Where to POST ratings.' },
  },
} as const;

/** POST /api/community-review/sessions: the session plus its secret, shown this once. */
export const createdSessionSchema = {
  ...reviewSessionSchema,
  required: [...reviewSessionSchema.required, 'session_secret'],
  properties: {
    ...reviewSessionSchema.properties,
    session_secret: {
      type: 'string',
      pattern: SESSION_SECRET_PATTERN,
      description: 'Needed to post ratings. Shown only in this response; the service keeps only its SHA-256.',
    },
  },
} as const;

/** POST responses: what was stored, and the session with the rated samples' engine scores revealed. */
export const responsesResultSchema = {
  type: 'object',
  required: ['accepted', 'session'],
  properties: {
    accepted: {
      type: 'array',
      items: {
        type: 'object',
        required: ['sample_id', 'replaced'],
        properties: { sample_id: { type: 'string' }, replaced: { type: 'boolean', description: 'True when an earlier rating of the sample was replaced.' } },
      },
    },
    session: reviewSessionSchema,
  },
} as const;

/** GET /api/community-review/sessions. */
export const sessionListSchema = {
  type: 'object',
  required: ['generated_at', 'limit', 'sessions'],
  properties: {
    generated_at: { type: 'string', format: 'date-time' },
    limit: { type: 'integer' },
    sessions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['session_id', 'created_at', 'samples', 'rated_samples', 'last_rated_at'],
        properties: {
          session_id: { type: 'string', format: 'uuid' },
          created_at: { type: 'string', format: 'date-time' },
          samples: { type: 'integer' },
          rated_samples: { type: 'integer' },
          last_rated_at: { type: ['string', 'null'], format: 'date-time' },
        },
      },
    },
  },
} as const;

/** GET /api/community-review/summary. */
export const summarySchema = {
  type: 'object',
  required: ['generated_at', 'sessions', 'reviewed_sessions', 'rated_samples', 'min_ratings', 'scale', 'method', 'dimensions'],
  properties: {
    generated_at: { type: 'string', format: 'date-time' },
    sessions: { type: 'integer', description: 'Sessions created (consents).' },
    reviewed_sessions: { type: 'integer', description: 'Sessions with at least one rating.' },
    rated_samples: { type: 'integer', description: 'Responses: (session, sample) pairs rated.' },
    min_ratings: { type: 'integer', description: 'Below this many ratings of a dimension, its agreement figures are null.' },
    scale: { type: 'object', properties: { min: { const: RATING_MIN }, max: { const: RATING_MAX } } },
    method: { type: 'string' },
    dimensions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['dimension', 'engine_field', 'ratings', 'samples', 'spearman', 'mean_absolute_difference', 'mean_rating', 'mean_engine'],
        properties: {
          dimension: { enum: [...REVIEW_DIMENSIONS] },
          engine_field: { type: 'string', description: 'The engine output the ratings are compared with.' },
          ratings: { type: 'integer' },
          samples: { type: 'integer', description: 'Distinct samples rated on this dimension.' },
          spearman: {
            type: ['number', 'null'],
            description: "Spearman's rank correlation of ratings with the engine's values (ties get their average rank); null below min_ratings or when either side does not vary.",
          },
          mean_absolute_difference: {
            type: ['number', 'null'],
            description: 'Mean |rating on 0..1 - engine value on 0..1|, 0 (full agreement) to 1; null below min_ratings.',
          },
          mean_rating: { type: ['number', 'null'], description: 'Mean rating mapped to 0..1; null with no ratings.' },
          mean_engine: { type: ['number', 'null'], description: "Mean of the engine's values of the rated samples, 0..1; null with no ratings." },
        },
      },
    },
  },
} as const;
