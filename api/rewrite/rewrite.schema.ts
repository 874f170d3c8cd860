import {
  DELAY_SECONDS_SCHEMA,
  INCOMING_MESSAGE_SCHEMA,
  PROFILE_ID_SCHEMA,
  PROPOSED_TEXT_SCHEMA,
  TX_HASH_SCHEMA,
  WALLET_ADDRESS_SCHEMA,
} from '../http/fields.schema';
import type { BodyOf } from '../http/ajv';

/** JSON schema of {@link RewriteRequest}; validates requests and is published in the OpenAPI document. */
export const rewriteRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['wallet_address', 'proposed_text', 'response_delay_seconds', 'target_profile'],
  properties: {
    wallet_address: WALLET_ADDRESS_SCHEMA,
    proposed_text: { ...PROPOSED_TEXT_SCHEMA, description: "The agent's reply to rewrite. Never stored: a replay rebuilds the rewritten text from the same request." },
    response_delay_seconds: DELAY_SECONDS_SCHEMA,
    target_profile: { ...PROFILE_ID_SCHEMA, description: 'The profile to rewrite toward (GET /api/profiles).' },
    incoming_message: INCOMING_MESSAGE_SCHEMA,
    tx_hash: TX_HASH_SCHEMA,
  },
} as const;

/** Body of `POST /api/rewrite`. */
export type RewriteRequest = BodyOf<typeof rewriteRequestSchema>;
