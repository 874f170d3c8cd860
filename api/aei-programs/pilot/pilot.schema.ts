import type { FieldProblem } from '../../../shared/errors';
import { PILOT_CONSENT, PILOT_MODEL_CONSENT } from '../consent-texts';
import { scaleRatingsSchema } from '../rating-scales';
import type { BodyOf } from '../../http/ajv';

const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** The topics a participant may choose and a sponsor's scenario belongs to. */
export const PILOT_TOPICS = ['customer-support', 'tech-support', 'travel', 'shopping', 'banking', 'health-admin', 'everyday-chat'] as const;

/** Days of the week, as preferences name them (UTC). */
export const WEEK_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** Longest reply a participant sends in one turn. */
export const MAX_REPLY_CHARS = 2_000;

/** Longest optional feedback comment. */
export const MAX_COMMENT_CHARS = 1_000;

/** POST /api/aei/pilot/enroll. */
export const pilotEnrollRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['consent', 'consent_version'],
  properties: {
    consent: { type: 'boolean', const: true, description: 'Must be true: the participant accepts the consent text of consent_version.' },
    consent_version: {
      type: 'string',
      const: PILOT_CONSENT.version,
      description: `The version accepted, as GET /api/aei/pilot/consent serves it (now ${PILOT_CONSENT.version}).`,
    },
  },
} as const;

/**
 * The code of a failed consent: missing or false consent, or a version that is not the current one.
 * @param version - the current version
 * @returns the refiner
 */
export function refineConsent(version: string) {
  return (fields: FieldProblem[]): { code: string; message: string } | undefined => {
    if (fields.some((f) => f.path === '/consent')) return { code: 'consent_required', message: 'Set "consent": true to accept; nothing is stored without it.' };
    if (fields.some((f) => f.path === '/consent_version')) return { code: 'consent_version_not_current', message: `Read and accept the current consent text (version ${version}).` };
    return undefined;
  };
}

/** POST /api/aei/pilot/preferences: every field optional; an absent one keeps its value. */
export const pilotPreferencesRequestSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    topics: {
      type: 'array',
      uniqueItems: true,
      maxItems: PILOT_TOPICS.length,
      items: { enum: [...PILOT_TOPICS] },
      description: 'Topics the participant wants conversations about; empty: any topic.',
    },
    conversations_per_week: { type: 'integer', minimum: 1, maximum: 14, description: 'At most this many invitations in any 7 days (declined and expired ones count).' },
    times: {
      type: 'object',
      additionalProperties: false,
      required: ['days', 'from_hour_utc', 'to_hour_utc'],
      description: 'When invitations may be offered: these UTC days, from from_hour_utc (inclusive) to to_hour_utc (exclusive).',
      properties: {
        days: { type: 'array', uniqueItems: true, minItems: 1, maxItems: 7, items: { enum: [...WEEK_DAYS] } },
        from_hour_utc: { type: 'integer', minimum: 0, maximum: 23 },
        to_hour_utc: { type: 'integer', minimum: 1, maximum: 24 },
      },
    },
  },
} as const;

/** The validated preferences. */
export type PilotPreferencesRequest = BodyOf<typeof pilotPreferencesRequestSchema>;

/** POST /api/aei/pilot/model-consent: give (with the version) or withdraw. */
export const pilotModelConsentRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['consent'],
  properties: {
    consent: { type: 'boolean', description: 'true gives the model consent (consent_version required), false withdraws it.' },
    consent_version: {
      type: 'string',
      const: PILOT_MODEL_CONSENT.version,
      description: `The version of the model-consent text accepted (now ${PILOT_MODEL_CONSENT.version}); required when consent is true.`,
    },
  },
  if: { properties: { consent: { const: true } } },
  then: { required: ['consent_version'], properties: { consent_version: { type: 'string' } } },
} as const;

/** The validated model consent. */
export type PilotModelConsentRequest = BodyOf<typeof pilotModelConsentRequestSchema>;

/** Bodies of the participant's state changes with no fields (pause, resume, decline, start, stop). */
export const emptyRequestSchema = { type: 'object', additionalProperties: false, properties: {} } as const;

/** POST /api/aei/pilot/reply: the participant's turn. */
export const pilotReplyRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['text'],
  properties: {
    text: { type: 'string', minLength: 1, maxLength: MAX_REPLY_CHARS, pattern: '\\S', description: "The participant's message to the agent." },
  },
} as const;

/** The validated reply. */
export type PilotReplyRequest = BodyOf<typeof pilotReplyRequestSchema>;

/** POST /api/aei/pilot/feedback: ratings of one agent turn. */
export const pilotFeedbackRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['turn_id', 'ratings'],
  properties: {
    turn_id: { type: 'string', pattern: UUID_PATTERN, description: "An agent turn of the participant's current or last conversation." },
    ratings: scaleRatingsSchema,
    comment: { type: 'string', maxLength: MAX_COMMENT_CHARS, description: 'Optional; kept with the feedback, never shown in any report.' },
  },
} as const;

/** The validated feedback. */
export type PilotFeedbackRequest = BodyOf<typeof pilotFeedbackRequestSchema>;
