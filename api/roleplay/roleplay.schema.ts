import { FEELING_IDS } from '../../shared/roleplay/feelings';
import { DELAY_SECONDS_SCHEMA, PROFILE_ID_SCHEMA, PROPOSED_TEXT_SCHEMA, TX_HASH_SCHEMA, WALLET_ADDRESS_SCHEMA } from '../http/fields.schema';
import type { BodyOf } from '../http/ajv';

/** The profile a room is scored against when the opener names none. */
export const DEFAULT_ROOM_PROFILE = 'empathetic-counselor';

/** JSON schema of {@link OpenRoomRequest}. */
export const openRoomRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['wallet_address'],
  properties: {
    wallet_address: WALLET_ADDRESS_SCHEMA,
    profile: { ...PROFILE_ID_SCHEMA, description: `The profile every turn of the room is scored against (GET /api/profiles). Default ${DEFAULT_ROOM_PROFILE}.` },
    open_to_any_partner: {
      type: 'boolean',
      description: 'List the room in GET /api/roleplay/open for any bot to join. Default false: only a bot given the room_id can join.',
    },
    tx_hash: TX_HASH_SCHEMA,
  },
} as const;

/** Body of `POST /api/roleplay`. */
export type OpenRoomRequest = BodyOf<typeof openRoomRequestSchema>;

const ROOM_ID_SCHEMA = { type: 'string', format: 'uuid', description: 'The room (room_id of POST /api/roleplay).' } as const;

/** JSON schema of {@link JoinRoomRequest}. */
export const joinRoomRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['room_id'],
  properties: { room_id: ROOM_ID_SCHEMA },
} as const;

/** Body of `POST /api/roleplay/join`. */
export type JoinRoomRequest = BodyOf<typeof joinRoomRequestSchema>;

/** JSON schema of {@link TurnRequest}. */
export const turnRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['room_id', 'text', 'response_delay_seconds'],
  properties: {
    room_id: ROOM_ID_SCHEMA,
    text: { ...PROPOSED_TEXT_SCHEMA, description: "This turn's message: the ask, or the help. Scored, never stored." },
    response_delay_seconds: DELAY_SECONDS_SCHEMA,
    feeling: {
      type: 'string',
      enum: FEELING_IDS,
      description:
        'Required on an ask turn, refused on a help turn: the feeling the asker privately declares for this ask (GET /api/roleplay/feelings). ' +
        'Hidden from the other bot until the room completes.',
    },
  },
} as const;

/** Body of `POST /api/roleplay/turn` (the secret comes in the X-ROLEPLAY-SECRET header). */
export type TurnRequest = BodyOf<typeof turnRequestSchema>;
