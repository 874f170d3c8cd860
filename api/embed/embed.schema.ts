import { CONTEXTUAL_EVALUATOR, ISSUE_CODES, STRUCTURAL_EVALUATOR } from '../../shared/embed/issue-codes';
import { MAX_TEXT_CHARS } from '../../shared/scoring';
import type { BodyOf } from '../http/ajv';

/** The path of the embedded check. */
export const EMBED_CHECK_PATH = '/api/embed/check';

/** Longest `context.situation` (characters). */
export const MAX_SITUATION_CHARS = 2000;
/** Longest `context.incoming_message` (characters). */
export const MAX_INCOMING_CHARS = 4000;

/** POST /api/embed/check: the draft being edited, the mode, and for contextual mode its situation. */
export const embedCheckRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['draft'],
  properties: {
    draft: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_TEXT_CHARS,
      pattern: '\\S',
      description:
        `The edited text: the draft as it stands now, at most ${MAX_TEXT_CHARS} characters. Offsets in the answer index it in UTF-16 code ` +
        'units. It is never stored, logged or returned; in contextual mode (only) it is sent to the configured language-model provider.',
    },
    mode: {
      type: 'string',
      enum: ['structural', 'contextual'],
      default: 'structural',
      description: `structural (default): the engine's machine-like signals (${STRUCTURAL_EVALUATOR}). contextual: those plus ${CONTEXTUAL_EVALUATOR}, which reads the draft against context.situation.`,
    },
    context: {
      type: 'object',
      additionalProperties: false,
      required: ['situation'],
      description: 'Required in contextual mode; not accepted in structural mode.',
      properties: {
        situation: { type: 'string', minLength: 1, maxLength: MAX_SITUATION_CHARS, pattern: '\\S', description: `What the draft answers (who, what happened, what is asked); at most ${MAX_SITUATION_CHARS} characters.` },
        incoming_message: { type: 'string', minLength: 1, maxLength: MAX_INCOMING_CHARS, description: `The message the draft replies to, if any; at most ${MAX_INCOMING_CHARS} characters.` },
      },
    },
  },
  // contextual needs a context; structural (the default) takes none.
  if: { properties: { mode: { const: 'contextual' } }, required: ['mode'] },
  then: { properties: { context: true }, required: ['context'] },
  else: { not: { properties: { context: true }, required: ['context'] } },
} as const;

/** The validated request (defaults applied by the route, not the validator). */
export type EmbedCheckRequest = BodyOf<typeof embedCheckRequestSchema>;

/** One marked issue of the answer. */
export const issueSchema = {
  type: 'object',
  required: ['code', 'start', 'end', 'severity', 'fix'],
  additionalProperties: false,
  properties: {
    code: { type: 'string', enum: [...ISSUE_CODES.keys()], description: 'A code of the fixed list (see the operation description).' },
    start: { type: 'integer', minimum: 0, description: 'First UTF-16 code unit of the marked range in the draft (a JavaScript string index).' },
    end: { type: 'integer', minimum: 1, description: 'The code unit after the last one (half-open range); at most the draft length.' },
    severity: { type: 'string', enum: ['high', 'medium', 'low'] },
    fix: { type: 'string', description: 'A short fix, fixed per code; never a quote of the draft.' },
  },
} as const;

/** The 200 answer. */
export const embedCheckResponseSchema = {
  type: 'object',
  required: ['check_id', 'mode', 'evaluator', 'offset_unit', 'draft_length', 'issues', 'billing'],
  properties: {
    check_id: { type: 'string', format: 'uuid', description: 'The charged check (the same on every replay of its key).' },
    mode: { type: 'string', enum: ['structural', 'contextual'] },
    evaluator: { type: 'string', enum: [STRUCTURAL_EVALUATOR, CONTEXTUAL_EVALUATOR] },
    offset_unit: { type: 'string', const: 'utf16_code_unit' },
    draft_length: { type: 'integer', description: 'Length of the checked draft in UTF-16 code units: offsets apply to exactly that text.' },
    issues: { type: 'array', items: issueSchema, description: 'In reading order; empty when nothing reads machine-like.' },
    billing: {
      type: 'object',
      required: ['credits_spent', 'replayed'],
      properties: {
        credits_spent: { type: 'integer', enum: [0, 1], description: '1 on the request that ran the check; 0 on a replay.' },
        credits_remaining: { type: 'integer', description: 'The bundle balance right after this charge (absent on a replay).' },
        replayed: { type: 'boolean' },
      },
    },
  },
} as const;
