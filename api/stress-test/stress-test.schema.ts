import { DELAY_SECONDS_SCHEMA, INCOMING_MESSAGE_SCHEMA, PROPOSED_TEXT_SCHEMA, TX_HASH_SCHEMA, WALLET_ADDRESS_SCHEMA } from '../http/fields.schema';
import type { BodyOf, QueryOf } from '../http/ajv';

/** JSON schema of {@link StressTestRequest}; validates requests and is published in the OpenAPI document. */
export const stressTestRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['wallet_address', 'proposed_text', 'response_delay_seconds'],
  properties: {
    wallet_address: WALLET_ADDRESS_SCHEMA,
    proposed_text: { ...PROPOSED_TEXT_SCHEMA, description: `${PROPOSED_TEXT_SCHEMA.description} Scored against all 28 profiles; never stored.` },
    response_delay_seconds: DELAY_SECONDS_SCHEMA,
    incoming_message: INCOMING_MESSAGE_SCHEMA,
    tx_hash: TX_HASH_SCHEMA,
  },
} as const;

/** Body of `POST /api/stress-test`. */
export type StressTestRequest = BodyOf<typeof stressTestRequestSchema>;

/** JSON schema of {@link StressTestQuoteQuery}. */
export const stressTestQuoteQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    wallet_address: { ...WALLET_ADDRESS_SCHEMA, description: 'Quote for this wallet (the loyalty discount applies when it qualifies); without it, the list price.' },
  },
} as const;

/** Query of `GET /api/stress-test` (the quote). */
export type StressTestQuoteQuery = QueryOf<typeof stressTestQuoteQuerySchema>;
