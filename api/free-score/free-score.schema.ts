import { PROFILES } from '../../shared/profiles';
import { MAX_DELAY_SECONDS, MAX_TEXT_CHARS } from '../../shared/scoring/limits';

/** Ids of the 28 profiles, in their fixed order. */
export const PROFILE_IDS = PROFILES.map((p) => p.id);

/** Body of `POST /api/score` (free tier). */
export interface ScoreRequest {
  data_consent: true;
  proposed_text: string;
  response_delay_seconds?: number;
  target_profile?: string;
  incoming_message?: string;
}

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
      type: 'string',
      minLength: 1,
      maxLength: MAX_TEXT_CHARS,
      pattern: '\\S',
      description: `The agent's reply to score; at most ${MAX_TEXT_CHARS} characters (the scorer counts UTF-16 code units and answers 422 text_too_long beyond ${MAX_TEXT_CHARS}).`,
    },
    response_delay_seconds: {
      type: 'number',
      minimum: 0,
      maximum: MAX_DELAY_SECONDS,
      description: 'Seconds between the incoming message and the reply; without it timing is left out.',
    },
    target_profile: {
      type: 'string',
      enum: PROFILE_IDS,
      description: 'Profile id (GET /api/profiles); without it only profile-free measures are returned.',
    },
    incoming_message: {
      type: 'string',
      maxLength: MAX_TEXT_CHARS,
      description: 'The message being answered; improves empathy, directness and timing. Never stored.',
    },
  },
} as const;
