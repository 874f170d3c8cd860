import { PRODUCT_TERMS } from '../products';

/** The two seats of a room: the bot that opened (and paid for) it, and the bot that joined it. */
export type Chair = 'opener' | 'joiner';

/** What a turn does: ask for help (declaring a feeling), or give it (graded on reading that feeling). */
export type TurnRole = 'asker' | 'helper';

/** Turns in a room (section 8). */
export const ROOM_TURNS = PRODUCT_TERMS.roleplayTurns;

/** The first turn after the chairs swap: the midpoint. */
export const SWAP_AT_TURN = ROOM_TURNS / 2 + 1;

/** Who speaks at a turn, and in which role. */
export interface TurnSlot {
  turn: number;
  chair: Chair;
  role: TurnRole;
}

/**
 * The fixed plan of a room: asks and helps alternate (odd turns ask, even turns help, each help
 * answers the ask just before it). Turns 1 to 4: the opener asks, the joiner helps. At turn 5 the
 * chairs swap: the joiner asks, the opener helps. So the joiner speaks turns 4 and 5 in a row.
 * @param turn - 1 to {@link ROOM_TURNS}
 * @returns who speaks and in which role
 * @throws RangeError for a turn outside the room
 */
export function slotOf(turn: number): TurnSlot {
  if (!Number.isInteger(turn) || turn < 1 || turn > ROOM_TURNS) throw new RangeError(`a room has turns 1 to ${ROOM_TURNS}, not ${turn}`);
  const role: TurnRole = turn % 2 === 1 ? 'asker' : 'helper';
  const beforeSwap = turn < SWAP_AT_TURN;
  const askerChair: Chair = beforeSwap ? 'opener' : 'joiner';
  const chair: Chair = role === 'asker' ? askerChair : askerChair === 'opener' ? 'joiner' : 'opener';
  return { turn, chair, role };
}

/** Points of a helper turn's score that a correct reading of the feeling earns (the rest is the EQ score). */
export const READING_WEIGHT = 0.25;

/**
 * A turn's score in the room report: an ask turn scores its EQ score; a help turn scores
 * 75 percent of its EQ score plus 25 points for a correct reading of the asker's feeling.
 * @param role - the turn's role
 * @param eqScore - the engine's EQ score against the room's profile, 0..100
 * @param readingCorrect - a help turn's reading (ignored for an ask)
 * @returns 0..100, one decimal
 */
export function turnScore(role: TurnRole, eqScore: number, readingCorrect: boolean | null): number {
  const raw = role === 'asker' ? eqScore : (1 - READING_WEIGHT) * eqScore + (readingCorrect ? 100 * READING_WEIGHT : 0);
  return Math.round(raw * 10) / 10;
}
