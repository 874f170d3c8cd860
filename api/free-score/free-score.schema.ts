import { MAX_TEXT_CHARS } from '../../shared/scoring/limits';
import { DELAY_SECONDS_SCHEMA, INCOMING_MESSAGE_SCHEMA, PROFILE_ID_SCHEMA, PROPOSED_TEXT_SCHEMA } from '../http/fields.schema';
import type { BodyOf } from '../http/ajv';

/** JSON schema of {@link ScoreRequest}; validates requests and is published in the OpenAPI document. */
export const scoreRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['data_consent', 'proposed_text'],
  properties: {
    data_consent: {
      type: 'boolean',
      const: true,
      description:
        'Strict boolean; must be true. The free tier keeps consented replies in its free corpus (aggregate evidence at /api/corpus/evidence).',
    },
    proposed_text: {
      ...PROPOSED_TEXT_SCHEMA,
      description: `The agent's reply to score, in English; at most ${MAX_TEXT_CHARS} characters (the scorer counts UTF-16 code units and answers 422 text_too_long beyond ${MAX_TEXT_CHARS}). A reply confidently in another language is refused with 422 unsupported_language and costs no round.`,
    },
    response_delay_seconds: {
      ...DELAY_SECONDS_SCHEMA,
      description: 'Seconds between the incoming message and the reply; without it timing is left out.',
    },
    target_profile: {
      ...PROFILE_ID_SCHEMA,
      description: 'Profile id (GET /api/profiles); without it only profile-free measures are returned.',
    },
    incoming_message: INCOMING_MESSAGE_SCHEMA,
  },
} as const;

/** Body of `POST /api/score` (free tier). */
export type ScoreRequest = BodyOf<typeof scoreRequestSchema>;
