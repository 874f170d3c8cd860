import { DELAY_SECONDS_SCHEMA, INCOMING_MESSAGE_SCHEMA, PROFILE_ID_SCHEMA, PROPOSED_TEXT_SCHEMA } from '../http/fields.schema';
import type { BodyOf } from '../http/ajv';

/** JSON schema of {@link GuideRequest}: strict; nothing in it is ever stored. */
export const guideRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['draft', 'profile'],
  properties: {
    draft: { ...PROPOSED_TEXT_SCHEMA, description: `The agent's draft reply, in English. Scored in memory and discarded: never stored, hashed in the clear or logged.` },
    profile: { ...PROFILE_ID_SCHEMA, description: 'The target profile the draft should read like (GET /api/profiles).' },
    situation: {
      type: 'object',
      additionalProperties: false,
      description: 'What the draft answers. Never stored.',
      properties: {
        incoming_message: { ...INCOMING_MESSAGE_SCHEMA, description: "The customer's message the draft answers; improves empathy, directness and timing. Never stored." },
        response_delay_seconds: { ...DELAY_SECONDS_SCHEMA, description: 'Seconds between the customer message and when the reply would be sent; adds timing advice.' },
      },
    },
  },
} as const;

/** Body of `POST /api/aei/guide`. */
export type GuideRequest = BodyOf<typeof guideRequestSchema>;

const spanSchema = {
  type: 'object',
  required: ['start', 'end'],
  properties: {
    start: { type: 'integer', description: 'UTF-16 code unit offset into draft (inclusive), as JavaScript string indices count.' },
    end: { type: 'integer', description: 'UTF-16 code unit offset into draft (exclusive).' },
  },
} as const;

const dimensionSchema = {
  type: 'object',
  required: ['measured', 'target', 'delta', 'fit'],
  properties: { measured: { type: 'number' }, target: { type: 'number' }, delta: { type: 'number' }, fit: { type: 'number' } },
} as const;

/** JSON schema of the guide's answer: codes, numbers and offsets, never a quote of the draft. */
export const guideResponseSchema = {
  type: 'object',
  required: ['scorer_version', 'profile', 'human_likeness', 'eq_score', 'passed', 'signals', 'dimensions', 'advice', 'offsets', 'replayed', 'allowance'],
  properties: {
    scorer_version: { type: 'string' },
    profile: { type: 'string' },
    human_likeness: { type: 'number', description: '0-100, profile-free.' },
    eq_score: { type: 'number', description: '0-100 against the profile.' },
    passed: { type: 'boolean' },
    signals: {
      type: 'array',
      description: 'Machine-like signal codes found for this profile, with where they are.',
      items: {
        type: 'object',
        required: ['code', 'severity', 'count', 'hard_fail', 'spans'],
        properties: { code: { type: 'string' }, severity: { type: 'number' }, count: { type: 'integer' }, hard_fail: { type: 'boolean' }, spans: { type: 'array', items: spanSchema } },
      },
    },
    dimensions: {
      type: 'object',
      required: ['empathy', 'formality', 'directness', 'hesitation'],
      properties: { empathy: dimensionSchema, formality: dimensionSchema, directness: dimensionSchema, hesitation: dimensionSchema },
    },
    advice: {
      type: 'object',
      required: ['suggested_prompt_addition', 'improvement'],
      properties: {
        suggested_prompt_addition: { type: 'string', description: "The engine's system-prompt addition, with any phrase quoted from the draft left out (the signal offsets point at them)." },
        improvement: { type: 'string', description: 'The next step, with offsets in place of a quote.' },
        suggested_delay_seconds: { type: 'object', properties: { expected: { type: 'number' }, window: { type: 'array', items: { type: 'number' } } } },
      },
    },
    offsets: { type: 'string', enum: ['utf-16'] },
    replayed: { type: 'boolean', description: 'true when this is the stored answer of an earlier call with the same Idempotency-Key and inputs (no allowance used).' },
    allowance: {
      type: 'object',
      required: ['kind', 'left'],
      properties: {
        kind: { type: 'string', enum: ['company', 'bundle', 'caller'], description: 'Whose allowance the call counted against.' },
        left: { type: ['integer', 'null'], description: 'Calls left: in the company period, or in the current rate window of the bundle or caller; null on a replay (which uses none).' },
      },
    },
  },
} as const;
