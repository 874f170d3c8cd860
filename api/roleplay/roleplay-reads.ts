import { AppError } from '../../shared/errors';
import { PRODUCT_TERMS } from '../../shared/products';
import { FEELINGS } from '../../shared/roleplay/feelings';
import type { AppDeps } from '../http/deps';
import { SECRET_SHOWN_NOTE } from './present-opened-room';
import { presentListedRoom, presentRoom } from './present-room';
import { READING_RULES } from './reading-rules';
import { getRoom, joinOpenRoom, listOpenRooms, turnsOf } from './room-store';
import { hashSessionSecret, invalidSessionSecret, newSessionSecret } from './session-secret';

/** Rooms the public open list shows at most, newest first. */
export const OPEN_LIST_LIMIT = 50;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The rooms any bot may join (`GET /api/roleplay/open`): no secrets, no wallets.
 * @param deps - app dependencies
 * @returns the body
 */
export async function openRoomList(deps: AppDeps): Promise<Record<string, unknown>> {
  const rooms = await listOpenRooms(deps.dataSource, OPEN_LIST_LIMIT);
  return { rooms: rooms.map(presentListedRoom), limit: OPEN_LIST_LIMIT };
}

/**
 * The feelings an asker declares and how a help is read (`GET /api/roleplay/feelings`).
 * @returns the body
 */
export function feelingList(): Record<string, unknown> {
  return { feelings: FEELINGS.map((f) => ({ id: f.id, description: f.description, cues: f.cues })), reading: READING_RULES };
}

/**
 * Joins an open room for free (`POST /api/roleplay/join`) with the joiner's own fresh secret,
 * shown this once; only its hash is stored.
 * @param deps - app dependencies
 * @param roomId - the room
 * @returns the body, with session_secret
 * @throws AppError 404 room_not_found, 410 room_expired, 409 room_already_joined
 */
export async function joinRoom(deps: AppDeps, roomId: string): Promise<Record<string, unknown>> {
  const secret = newSessionSecret();
  const joined = await joinOpenRoom(deps.dataSource, roomId, hashSessionSecret(secret));
  if (!joined) throw await whyNotJoinable(deps, roomId);
  return { ...presentRoom(joined, [], 'joiner'), session_secret: secret, secret_note: SECRET_SHOWN_NOTE };
}

/**
 * A room's state and report (`GET /api/roleplay/{room_id}`): a participant's view with its secret's
 * hash, the public view without one.
 * @param deps - app dependencies
 * @param roomId - the room id as sent
 * @param secretHash - the hash of the sent secret, or undefined when none was sent
 * @returns the body
 * @throws AppError 404 room_not_found, 401 invalid_session_secret (a secret was sent and is wrong)
 */
export async function roomReport(deps: AppDeps, roomId: string, secretHash: string | undefined): Promise<Record<string, unknown>> {
  const found = UUID.test(roomId) ? await getRoom(deps.dataSource, roomId, secretHash) : undefined;
  if (!found || found.room.state === 'pending') throw new AppError(404, 'room_not_found', 'No role-play room has this room_id.');
  // A secret that is sent must be right: a wrong one is refused, not quietly shown the public view.
  if (secretHash !== undefined && found.chair === null) throw invalidSessionSecret();
  return presentRoom(found.room, await turnsOf(deps.dataSource, roomId), found.chair ?? 'public');
}

async function whyNotJoinable(deps: AppDeps, roomId: string): Promise<AppError> {
  const found = await getRoom(deps.dataSource, roomId);
  const room = found?.room;
  if (!room || room.state === 'pending') return new AppError(404, 'room_not_found', 'No open role-play room has this room_id.');
  if (room.state === 'expired' || room.state === 'open') {
    return new AppError(410, 'room_expired', `This room was left unmatched for ${PRODUCT_TERMS.roleplayUnmatchedExpiryHours} hours and expired; it cannot be joined.`);
  }
  return new AppError(409, 'room_already_joined', 'This room has its two bots already; open or join another.');
}
