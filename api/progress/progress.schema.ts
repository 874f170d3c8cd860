import { DEFAULT_HISTORY_LIMIT } from '../../jobs';
import { TX_HASH_SCHEMA, WALLET_ADDRESS_SCHEMA } from '../http/fields.schema';
import type { BodyOf } from '../http/ajv';

/** JSON schema of {@link ProgressRequest}; validates requests and is published in the OpenAPI document. */
export const progressRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['wallet_address'],
  properties: {
    wallet_address: { ...WALLET_ADDRESS_SCHEMA, description: `${WALLET_ADDRESS_SCHEMA.description} The report covers this wallet's ledger.` },
    history_limit: {
      type: 'integer',
      minimum: 1,
      maximum: 200,
      default: DEFAULT_HISTORY_LIMIT,
      description: 'How many of the newest sessions the report lists one by one (the statistics cover up to 1000).',
    },
    tx_hash: TX_HASH_SCHEMA,
  },
} as const;

/** Body of `POST /api/progress`. */
export type ProgressRequest = BodyOf<typeof progressRequestSchema>;
