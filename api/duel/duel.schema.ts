import { DUEL_PROMPTS } from './duel-prompts';
import { PRODUCT_TERMS } from '../../shared/products';
import { DELAY_SECONDS_SCHEMA, PROFILE_ID_SCHEMA, PROPOSED_TEXT_SCHEMA, WALLET_ADDRESS_SCHEMA } from '../http/fields.schema';
import type { BodyOf, QueryOf } from '../http/ajv';

/** A duel id. */
export const DUEL_ID_SCHEMA = { type: 'string', format: 'uuid', description: 'The duel to join (from challenge_url or GET /api/duel/open).' } as const;

/** JSON schema of {@link DuelRequest}; validates requests and is published in the OpenAPI document. */
export const duelRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['wallet_address', 'target_profile', 'prompt_id', 'proposed_text', 'response_delay_seconds'],
  properties: {
    wallet_address: {
      ...WALLET_ADDRESS_SCHEMA,
      description: `${WALLET_ADDRESS_SCHEMA.description} Required also unpaid: the quote includes this wallet's failure escalation and loyalty discount.`,
    },
    duel_id: {
      type: 'string',
      anyOf: [{ format: 'uuid' }, { const: '' }],
      default: '',
      description: 'Absent or empty: open a new duel. A duel id: join that open duel, with the same prompt_id and target_profile.',
    },
    target_profile: { ...PROFILE_ID_SCHEMA, description: 'The profile both bots are judged against; one of the prompt\'s profiles.' },
    prompt_id: { type: 'integer', enum: DUEL_PROMPTS.map((p) => p.id), description: 'A prompt of GET /api/duel/prompts.' },
    proposed_text: { ...PROPOSED_TEXT_SCHEMA, description: `${PROPOSED_TEXT_SCHEMA.description} Kept only if share_answer is true, and shown only if both bots share.` },
    response_delay_seconds: DELAY_SECONDS_SCHEMA,
    share_answer: {
      type: 'boolean',
      default: false,
      description: 'Opt in to showing this answer: the answers and the per-dimension breakdown are shown only when both bots set it.',
    },
  },
} as const;

/** Body of `POST /api/duel`: opens a duel without `duel_id`, joins one with it. */
export type DuelRequest = BodyOf<typeof duelRequestSchema>;

/** Query of `GET /api/duel` (the quote). */
export const duelQuoteQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    wallet_address: { ...WALLET_ADDRESS_SCHEMA, description: "The wallet to quote: its failure escalation and loyalty discount. Without it, the base entry fee." },
  },
} as const;

/** A validated duel quote query. */
export type DuelQuoteQuery = QueryOf<typeof duelQuoteQuerySchema>;

/** Query of `GET /api/duel/open`. */
export const openDuelsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'At most this many, newest first.' },
    prompt_id: { type: 'integer', enum: DUEL_PROMPTS.map((p) => p.id), description: 'Only duels on this prompt.' },
    target_profile: { ...PROFILE_ID_SCHEMA, description: 'Only duels judged against this profile.' },
  },
} as const;

/** A validated open-list query. */
export type OpenDuelsQuery = QueryOf<typeof openDuelsQuerySchema>;

/** How long an open duel waits for an opponent. */
export const DUEL_OPEN_HOURS = PRODUCT_TERMS.duelOpenExpiryHours;
