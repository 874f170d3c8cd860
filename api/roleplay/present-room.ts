import { ROOM_TURNS, SWAP_AT_TURN, slotOf, type Chair, type TurnSlot } from '../../shared/roleplay/turn-plan';
import type { RoomRow, TurnRow } from './room-store';

/** Who is looking at a room: a participant (by its secret) or anyone. */
export type Viewer = Chair | 'public';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/**
 * The next turn of a room, or null when none can be taken (not joined yet, completed, expired).
 * @param room - the room
 * @returns the slot
 */
export function nextTurnOf(room: RoomRow): TurnSlot | null {
  return room.state === 'joined' && room.turnsTaken < ROOM_TURNS ? slotOf(room.turnsTaken + 1) : null;
}

/**
 * A room as a participant or the public sees it. Never a secret, a wallet or a reply's text.
 * Before the room completes, an asker's declared feeling is shown only to the asker, and a help
 * turn's grade (which would give the feeling away) to nobody; the public sees the progress only.
 * Once completed, the report (every turn, both bots' scores, the feelings and readings) is public.
 * @param room - the room
 * @param turns - its recorded turns
 * @param viewer - who asks
 * @returns the body
 */
export function presentRoom(room: RoomRow, turns: TurnRow[], viewer: Viewer): Record<string, unknown> {
  const completed = room.state === 'completed';
  return {
    room_id: room.id,
    state: room.state,
    profile: room.profile,
    open_to_any_partner: room.openToAnyPartner,
    viewer,
    turns_total: ROOM_TURNS,
    swap_at_turn: SWAP_AT_TURN,
    turns_taken: room.turnsTaken,
    next_turn: nextTurnOf(room),
    created_at: iso(room.createdAt),
    opened_at: iso(room.openedAt),
    expires_at: room.state === 'open' || room.state === 'expired' ? iso(room.expiresAt) : null,
    joined_at: iso(room.joinedAt),
    completed_at: iso(room.completedAt),
    expired_at: iso(room.expiredAt),
    turns: completed ? turns.map(reportTurn) : viewer === 'public' ? [] : turns.map((t) => participantTurn(t, viewer)),
    report: completed ? reportOf(turns) : null,
  };
}

function engineScores(t: TurnRow) {
  return { eq_score: t.eqScore, passed: t.passed, human_likeness: t.humanLikeness, scorer_version: t.scorerVersion };
}

function reportTurn(t: TurnRow): Record<string, unknown> {
  return {
    turn: t.turn,
    chair: t.chair,
    role: t.role,
    ...engineScores(t),
    turn_score: t.turnScore,
    feeling: t.feeling,
    feeling_read: t.feelingRead,
    reading_correct: t.readingCorrect,
  };
}

function participantTurn(t: TurnRow, viewer: Chair): Record<string, unknown> {
  const own = t.chair === viewer;
  return {
    turn: t.turn,
    chair: t.chair,
    role: t.role,
    ...engineScores(t),
    // An ask scores its EQ score, known at once; a help's score depends on the hidden feeling.
    turn_score: t.role === 'asker' ? t.turnScore : null,
    feeling: own ? t.feeling : null,
    feeling_read: t.feelingRead,
    reading_correct: null,
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const mean = (xs: number[]) => (xs.length ? round1(xs.reduce((a, b) => a + b, 0) / xs.length) : null);

function reportOf(turns: TurnRow[]): Record<string, unknown> {
  const bot = (chair: Chair) => {
    const own = turns.filter((t) => t.chair === chair);
    const helps = own.filter((t) => t.role === 'helper');
    return {
      turns: own.map((t) => t.turn),
      overall_score: mean(own.map((t) => t.turnScore)),
      average_eq_score: mean(own.map((t) => t.eqScore)),
      readings_correct: helps.filter((t) => t.readingCorrect).length,
      readings_total: helps.length,
    };
  };
  return { opener: bot('opener'), joiner: bot('joiner') };
}

/**
 * A listed open room: no secret, no wallet.
 * @param room - an open room
 * @returns its public entry
 */
export function presentListedRoom(room: RoomRow): Record<string, unknown> {
  return { room_id: room.id, profile: room.profile, opened_at: iso(room.openedAt), expires_at: iso(room.expiresAt) };
}
