import type { DataSource, EntityManager } from 'typeorm';
import type { RoomState } from '../../shared/db/entities';
import type { Chair, TurnRole } from '../../shared/roleplay/turn-plan';

type Queryable = Pick<DataSource | EntityManager, 'query'>;

/** A room as the API reads it: never its secret hashes, only which of them exist. */
export interface RoomRow {
  id: string;
  authorizationId: string;
  openerWallet: string;
  profile: string;
  openToAnyPartner: boolean;
  state: RoomState;
  turnsTaken: number;
  createdAt: Date;
  openedAt: Date | null;
  expiresAt: Date | null;
  joinedAt: Date | null;
  completedAt: Date | null;
  expiredAt: Date | null;
}

/** A recorded turn. */
export interface TurnRow {
  turn: number;
  chair: Chair;
  role: TurnRole;
  feeling: string | null;
  feelingRead: string | null;
  readingCorrect: boolean | null;
  eqScore: number;
  passed: boolean;
  humanLikeness: number;
  turnScore: number;
  scorerVersion: string;
  createdAt: Date;
}

const COLUMNS =
  'id, authorization_id, opener_wallet, profile, open_to_any_partner, state, turns_taken, created_at, opened_at, expires_at, joined_at, completed_at, expired_at';

interface RawRoom {
  id: string;
  authorization_id: string;
  opener_wallet: string;
  profile: string;
  open_to_any_partner: boolean;
  state: RoomState;
  turns_taken: number;
  created_at: Date;
  opened_at: Date | null;
  expires_at: Date | null;
  joined_at: Date | null;
  completed_at: Date | null;
  expired_at: Date | null;
}

function toRoom(r: RawRoom): RoomRow {
  return {
    id: r.id,
    authorizationId: r.authorization_id,
    openerWallet: r.opener_wallet,
    profile: r.profile,
    openToAnyPartner: r.open_to_any_partner,
    state: r.state,
    turnsTaken: r.turns_taken,
    createdAt: r.created_at,
    openedAt: r.opened_at,
    expiresAt: r.expires_at,
    joinedAt: r.joined_at,
    completedAt: r.completed_at,
    expiredAt: r.expired_at,
  };
}

/**
 * Creates the room a payment buys, `pending` and with no secret yet (both come with the first
 * delivery after settlement). Runs inside the paid work, so a resumed reservation finds the same room.
 * @param db - DataSource
 * @param input - the payment's authorization, the payer, the profile, whether it is listed
 * @returns the room
 */
export async function createPendingRoom(
  db: Queryable,
  input: { authorizationId: string; wallet: string; profile: string; openToAnyPartner: boolean },
): Promise<RoomRow> {
  const rows = (await db.query(
    `WITH ins AS (
       INSERT INTO roleplay_rooms (authorization_id, opener_wallet, profile, open_to_any_partner)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT ON CONSTRAINT uq_roleplay_rooms_authorization_id DO NOTHING
       RETURNING ${COLUMNS})
     SELECT ${COLUMNS} FROM ins
     UNION ALL SELECT ${COLUMNS} FROM roleplay_rooms WHERE authorization_id = $1
     LIMIT 1`,
    [input.authorizationId, input.wallet, input.profile, input.openToAnyPartner],
  )) as RawRoom[];
  if (!rows[0]) throw new Error('roleplay room vanished after insert');
  return toRoom(rows[0]);
}

/**
 * Opens a paid room, once: stores the opener's secret hash and starts the unmatched-expiry clock.
 * Call it only from the first delivery after settlement.
 * @param db - DataSource
 * @param authorizationId - the opener's payment
 * @param secretHash - hash of the opener's new secret
 * @param expiryHours - how long an unmatched room stays open
 * @returns the opened room, or undefined when it was opened already
 */
export async function openPaidRoom(db: Queryable, authorizationId: string, secretHash: string, expiryHours: number): Promise<RoomRow | undefined> {
  const updated = (await db.query(
    `UPDATE roleplay_rooms
        SET state = 'open', opener_secret_hash = $2, opened_at = now(), expires_at = now() + make_interval(hours => $3)
      WHERE authorization_id = $1 AND state = 'pending'
      RETURNING ${COLUMNS}`,
    [authorizationId, secretHash, expiryHours],
  )) as [RawRoom[], number];
  const row = updated[0][0];
  return row ? toRoom(row) : undefined;
}

/**
 * Joins an open room: one conditional UPDATE, so of a join and the expiry job (or two joins) the
 * database lets exactly one through. A room past its deadline is not joinable even before the job
 * marks it expired.
 * @param db - DataSource
 * @param roomId - the room
 * @param secretHash - hash of the joiner's new secret
 * @returns the joined room, or undefined when the room was not open
 */
export async function joinOpenRoom(db: Queryable, roomId: string, secretHash: string): Promise<RoomRow | undefined> {
  const updated = (await db.query(
    `UPDATE roleplay_rooms SET state = 'joined', joiner_secret_hash = $2, joined_at = now()
      WHERE id = $1 AND state = 'open' AND expires_at > now()
      RETURNING ${COLUMNS}`,
    [roomId, secretHash],
  )) as [RawRoom[], number];
  const row = updated[0][0];
  return row ? toRoom(row) : undefined;
}

/**
 * Loads a room, and which chair a secret hash sits in.
 * @param db - DataSource
 * @param roomId - the room
 * @param secretHash - a participant's secret hash, or undefined
 * @returns the room and the chair (null when the hash matches neither), or undefined
 */
export async function getRoom(db: Queryable, roomId: string, secretHash?: string): Promise<{ room: RoomRow; chair: Chair | null } | undefined> {
  const rows = (await db.query(
    `SELECT ${COLUMNS},
            CASE WHEN $2::text IS NULL THEN NULL WHEN opener_secret_hash = $2 THEN 'opener' WHEN joiner_secret_hash = $2 THEN 'joiner' END AS chair
       FROM roleplay_rooms WHERE id = $1`,
    [roomId, secretHash ?? null],
  )) as Array<RawRoom & { chair: Chair | null }>;
  return rows[0] ? { room: toRoom(rows[0]), chair: rows[0].chair } : undefined;
}

/**
 * The open rooms listed for any partner, newest first.
 * @param db - DataSource
 * @param limit - at most this many
 * @returns the rooms
 */
export async function listOpenRooms(db: Queryable, limit: number): Promise<RoomRow[]> {
  const rows = (await db.query(
    `SELECT ${COLUMNS} FROM roleplay_rooms
      WHERE state = 'open' AND open_to_any_partner AND expires_at > now()
      ORDER BY opened_at DESC, id LIMIT $1`,
    [limit],
  )) as RawRoom[];
  return rows.map(toRoom);
}

/**
 * Every recorded turn of a room, in order.
 * @param db - DataSource
 * @param roomId - the room
 * @returns the turns
 */
export async function turnsOf(db: Queryable, roomId: string): Promise<TurnRow[]> {
  const rows = (await db.query(
    `SELECT turn_no, chair, role, feeling, feeling_read, reading_correct, eq_score, passed, human_likeness, turn_score, scorer_version, created_at
       FROM roleplay_turns WHERE room_id = $1 ORDER BY turn_no`,
    [roomId],
  )) as Array<{
    turn_no: number;
    chair: Chair;
    role: TurnRole;
    feeling: string | null;
    feeling_read: string | null;
    reading_correct: boolean | null;
    eq_score: number;
    passed: boolean;
    human_likeness: number;
    turn_score: number;
    scorer_version: string;
    created_at: Date;
  }>;
  return rows.map((r) => ({
    turn: r.turn_no,
    chair: r.chair,
    role: r.role,
    feeling: r.feeling,
    feelingRead: r.feeling_read,
    readingCorrect: r.reading_correct,
    eqScore: r.eq_score,
    passed: r.passed,
    humanLikeness: r.human_likeness,
    turnScore: r.turn_score,
    scorerVersion: r.scorer_version,
    createdAt: r.created_at,
  }));
}

/**
 * Records a scored turn, if the room is still where the turn was scored from: the room's counter
 * moves from `turn - 1` to `turn` in one conditional UPDATE (the eighth completes the room), in
 * the same transaction as the turn's row. Of two concurrent attempts at one turn, one is recorded.
 * @param ds - DataSource
 * @param roomId - the room
 * @param turn - the turn, as scored
 * @param totalTurns - turns in a room (the last completes it)
 * @returns true when recorded; false when another turn was recorded first
 */
export async function recordTurn(ds: DataSource, roomId: string, turn: Omit<TurnRow, 'createdAt'>, totalTurns: number): Promise<boolean> {
  return ds.transaction(async (tx) => {
    const moved = (await tx.query(
      `UPDATE roleplay_rooms
          SET turns_taken = $2,
              state = CASE WHEN $2 = $3 THEN 'completed' ELSE state END,
              completed_at = CASE WHEN $2 = $3 THEN now() ELSE completed_at END
        WHERE id = $1 AND state = 'joined' AND turns_taken = $2 - 1
        RETURNING id`,
      [roomId, turn.turn, totalTurns],
    )) as [unknown[], number];
    if (moved[0].length === 0) return false;
    await tx.query(
      `INSERT INTO roleplay_turns (room_id, turn_no, chair, role, feeling, feeling_read, reading_correct, eq_score, passed, human_likeness, turn_score, scorer_version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        roomId,
        turn.turn,
        turn.chair,
        turn.role,
        turn.feeling,
        turn.feelingRead,
        turn.readingCorrect,
        turn.eqScore,
        turn.passed,
        turn.humanLikeness,
        turn.turnScore,
        turn.scorerVersion,
      ],
    );
    return true;
  });
}
