import { MAX_TEXT_CHARS } from '../../shared/scoring/limits';
import { PROPOSED_TEXT_SCHEMA, WALLET_ADDRESS_SCHEMA } from '../http/fields.schema';
import type { BodyOf } from '../http/ajv';

/** Most approved facts in one request. */
export const MAX_APPROVED_FACTS = 100;
/** Longest approved fact (UTF-16 code units, like every text limit here). */
export const MAX_FACT_CHARS = 1_000;

/**
 * JSON schema of {@link ScriptCheckRequest}; validates requests and is published in the OpenAPI
 * document. `anyOf` says that at least one of `approved_facts` and `source_text` is required:
 * with neither, there is nothing to check against (422).
 */
export const scriptCheckRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['wallet_address', 'reply_text'],
  // `properties: { x: true }` only names the field for ajv's strict mode; its schema is below.
  anyOf: [
    { required: ['approved_facts'], properties: { approved_facts: true } },
    { required: ['source_text'], properties: { source_text: true } },
  ],
  properties: {
    wallet_address: WALLET_ADDRESS_SCHEMA,
    reply_text: {
      ...PROPOSED_TEXT_SCHEMA,
      description: `The agent's reply whose claims are checked; at most ${MAX_TEXT_CHARS} characters. Never stored beyond the result.`,
    },
    approved_facts: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_APPROVED_FACTS,
      items: { type: 'string', minLength: 1, maxLength: MAX_FACT_CHARS, pattern: '\\S' },
      description: `The approved statements (at most ${MAX_APPROVED_FACTS}, each at most ${MAX_FACT_CHARS} characters). At least one of approved_facts and source_text is required.`,
    },
    source_text: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_TEXT_CHARS,
      pattern: '\\S',
      description: `An approved source document (at most ${MAX_TEXT_CHARS} characters). At least one of approved_facts and source_text is required.`,
    },
  },
} as const;

/** Body of `POST /api/script-check`. */
export type ScriptCheckRequest = BodyOf<typeof scriptCheckRequestSchema>;
