import type { RoomRow } from './room-store';
import { ROOM_CLAIM_HEADER } from './secret-claim';
import { SESSION_SECRET_HEADER } from './session-secret';

// How an opener gets its secret across retries: the claim header, signed by the paying wallet.
const CLAIM_HOW = `send the same request with the same payment and ${ROOM_CLAIM_HEADER}: the paying wallet's signature (EIP-191 personal_sign, or ed25519 for Solana) of "humanlike: claim roleplay secret\\nnonce: <the payment's nonce>"`;

/** The note of an answer that carries a session secret. */
export const SECRET_SHOWN_NOTE = `session_secret is shown this once and stored only as a hash: keep it secret and send it in the ${SESSION_SECRET_HEADER} header of your turns.`;

/** The note of a stored opening (what replays show): the secret is never in a stored response. */
export const SECRET_WITHHELD_NOTE = `session_secret is shown once, in the first delivery after settlement, to the request that paid or to one that proves it comes from the payer (${CLAIM_HOW}) while no secret was shown; a replay rebuilt from the public chain never gets it.`;

/** The note of every answer to an opening that is not its delivery (quote, refusal, pending). */
export const SECRET_PENDING_NOTE = `The opener's session_secret comes in the first 200 after settlement, once. If this answer is not final (503, 504, a lost answer), never pay again: ${CLAIM_HOW}, and the secret is delivered once.`;

/**
 * The body of a room opening as stored for replays: no secret (`session_secret: null`); the first
 * delivery adds it, the room's `open` state and its expiry, without storing them.
 * @param room - the pending room
 * @param resultId - the payment's result id
 * @returns the body
 */
export function presentOpenedRoom(room: RoomRow, resultId: string): Record<string, unknown> {
  return {
    room_id: room.id,
    room_url: `/api/roleplay/${room.id}`,
    profile: room.profile,
    open_to_any_partner: room.openToAnyPartner,
    state: room.state,
    chair: 'opener',
    session_secret: null,
    secret_note: SECRET_WITHHELD_NOTE,
    result_id: resultId,
  };
}
