import { TX_HASH_SCHEMA, WALLET_ADDRESS_SCHEMA } from '../http/fields.schema';
import type { BodyOf } from '../http/ajv';

/** JSON schema of {@link TrainingDatasetRequest}; validates requests and is published in the OpenAPI document. */
export const trainingDatasetRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['wallet_address'],
  properties: {
    wallet_address: { ...WALLET_ADDRESS_SCHEMA, description: `${WALLET_ADDRESS_SCHEMA.description} The export covers this wallet's ledger.` },
    include_text: {
      type: 'boolean',
      default: true,
      description: 'Put the stored reply texts in the records (only sessions paid with store_text_for_training: true have one). false: metrics only.',
    },
    tx_hash: TX_HASH_SCHEMA,
  },
} as const;

/** Body of `POST /api/training-dataset`. */
export type TrainingDatasetRequest = BodyOf<typeof trainingDatasetRequestSchema>;
