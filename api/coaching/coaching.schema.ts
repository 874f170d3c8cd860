import { PACKS } from '../../shared/coaching/packs';
import { DELAY_SECONDS_SCHEMA, PROPOSED_TEXT_SCHEMA, TX_HASH_SCHEMA, WALLET_ADDRESS_SCHEMA } from '../http/fields.schema';
import type { BodyOf } from '../http/ajv';

/** JSON schema of {@link EnrollRequest}: an unknown pack is a 422 before any payment. */
export const enrollRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['wallet_address', 'pack_id'],
  properties: {
    wallet_address: WALLET_ADDRESS_SCHEMA,
    pack_id: { type: 'string', enum: PACKS.map((p) => p.id), description: 'A pack of GET /api/coaching/packs.' },
    tx_hash: TX_HASH_SCHEMA,
  },
} as const;

/** Body of `POST /api/coaching`. */
export type EnrollRequest = BodyOf<typeof enrollRequestSchema>;

/** JSON schema of {@link DrillRequest}. */
export const drillRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['drill_id', 'proposed_text', 'response_delay_seconds'],
  properties: {
    drill_id: {
      type: 'string',
      enum: PACKS.flatMap((p) => p.drills.map((d) => d.id)),
      description: "A drill of the enrollment's pack (`<pack_id>/<n>`, GET /api/coaching/packs).",
    },
    proposed_text: { ...PROPOSED_TEXT_SCHEMA, description: "The agent's reply to the drill's situation. Never stored or echoed." },
    response_delay_seconds: DELAY_SECONDS_SCHEMA,
  },
} as const;

/** Body of `POST /api/coaching/drill` (the secret comes in the X-COACHING-SECRET header). */
export type DrillRequest = BodyOf<typeof drillRequestSchema>;

/** Path parameter of `GET /api/coaching/{enrollment_id}`. */
export const ENROLLMENT_ID_SCHEMA = { type: 'string', format: 'uuid', description: 'The enrollment id of POST /api/coaching.' } as const;
