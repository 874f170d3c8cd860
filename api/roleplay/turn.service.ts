import { randomUUID } from 'node:crypto';
import { scoreThroughQueue } from '../../jobs';
import { AppError, ValidationError } from '../../shared/errors';
import { readFeeling } from '../../shared/roleplay/read-feeling';
import { ROOM_TURNS, turnScore } from '../../shared/roleplay/turn-plan';
import type { AppDeps } from '../http/deps';
import { nextTurnOf } from './present-room';
import { getRoom, recordTurn, turnsOf, type RoomRow, type TurnRow } from './room-store';
import type { TurnRequest } from './roleplay.schema';
import { SESSION_SECRET_HEADER, invalidSessionSecret } from './session-secret';

/**
 * Takes one turn of a room for the participant whose secret hash is given: checks that it is this
 * participant's turn (before any scoring), scores the message against the room's profile on the
 * `scoring` queue, reads a help turn's feeling, then records the turn only if no other turn was
 * recorded meanwhile.
 * @param deps - app dependencies
 * @param body - the validated turn
 * @param secretHash - hash of the X-ROLEPLAY-SECRET header, or undefined when absent
 * @param reqId - request id, for the worker's log lines
 * @returns the turn's answer
 * @throws AppError 401 session_secret_required / invalid_session_secret, 404 room_not_found,
 *   409 room_not_joined / not_your_turn / room_completed / turn_conflict, 410 room_expired,
 *   422 feeling_required / feeling_not_allowed, and the queue's 503/504
 */
export async function takeTurn(deps: AppDeps, body: TurnRequest, secretHash: string | undefined, reqId: string): Promise<Record<string, unknown>> {
  if (secretHash === undefined) throw new AppError(401, 'session_secret_required', `Send your session_secret in the ${SESSION_SECRET_HEADER} header.`);
  const found = await getRoom(deps.dataSource, body.room_id, secretHash);
  if (!found || found.room.state === 'pending') throw roomNotFound();
  const { room, chair } = found;
  if (chair === null) throw invalidSessionSecret();
  const slot = checkTurnable(room);
  if (slot.chair !== chair) {
    throw new AppError(409, 'not_your_turn', `Turn ${slot.turn} is the ${slot.chair}'s (${slot.role}); wait for it.`, { details: { next_turn: slot, your_chair: chair } });
  }
  if (slot.role === 'asker' && body.feeling === undefined) {
    throw new ValidationError([{ path: '/feeling', rule: 'required', message: 'is required on an ask turn: declare the feeling of this ask' }], 'An ask turn declares its feeling.', 'feeling_required');
  }
  if (slot.role === 'helper' && body.feeling !== undefined) {
    throw new ValidationError([{ path: '/feeling', rule: 'not_allowed', message: 'is only declared on ask turns' }], 'A help turn declares no feeling: it is graded on reading the asker\'s.', 'feeling_not_allowed');
  }

  const { score } = await scoreThroughQueue(
    deps.scoringQueue,
    deps.scoringEvents,
    // The role goes with the text: an asker voices feelings and gets no advice on answering them.
    { input: { text: body.text, profile: room.profile, delaySeconds: body.response_delay_seconds, role: slot.role }, reqId },
    { kind: 'roleplay-turn', attempt: randomUUID() },
    deps.config.jobs,
  );
  const profileResult = score.result;
  if (!profileResult) throw new Error('the scoring job returned no profile result');

  let reading: ReturnType<typeof readFeeling> | undefined;
  let readingCorrect: boolean | null = null;
  if (slot.role === 'helper') {
    const asked = (await turnsOf(deps.dataSource, room.id)).find((t) => t.turn === slot.turn - 1);
    if (!asked?.feeling) throw new Error(`help turn ${slot.turn} has no ask before it`);
    reading = readFeeling(body.text);
    readingCorrect = reading.feeling === asked.feeling;
  }
  const turn: Omit<TurnRow, 'createdAt'> = {
    turn: slot.turn,
    chair,
    role: slot.role,
    feeling: body.feeling ?? null,
    feelingRead: reading ? reading.feeling : null,
    readingCorrect,
    eqScore: profileResult.eq_score,
    passed: profileResult.passed,
    humanLikeness: score.human_likeness,
    turnScore: turnScore(slot.role, profileResult.eq_score, readingCorrect),
    scorerVersion: score.scorer_version,
  };
  if (!(await recordTurn(deps.dataSource, room.id, turn, ROOM_TURNS))) {
    throw new AppError(409, 'turn_conflict', `Turn ${slot.turn} was taken by another request meanwhile; read the room (GET /api/roleplay/{room_id}) and go on from there.`);
  }
  const after = { ...room, turnsTaken: slot.turn, state: slot.turn === ROOM_TURNS ? ('completed' as const) : room.state };
  return {
    room_id: room.id,
    turn: slot.turn,
    chair,
    role: slot.role,
    score: {
      eq_score: profileResult.eq_score,
      passed: profileResult.passed,
      human_likeness: score.human_likeness,
      scorer_version: score.scorer_version,
      suggested_prompt_addition: profileResult.advice.suggested_prompt_addition,
      improvement: profileResult.advice.improvement,
    },
    // The asker's own turn score is its EQ score; a help turn's waits for the room's end.
    turn_score: slot.role === 'asker' ? turn.turnScore : null,
    feeling: turn.feeling,
    feeling_reading: reading
      ? { feeling_read: reading.feeling, cues: reading.hits.map((h) => ({ feeling: h.feeling, start: h.start, end: h.end, negated: h.negated })), graded: 'when the room completes' }
      : null,
    room_state: after.state,
    turns_taken: after.turnsTaken,
    next_turn: nextTurnOf(after),
  };
}

function roomNotFound(): AppError {
  return new AppError(404, 'room_not_found', 'No open role-play room has this room_id.');
}

// The next slot of a room that takes turns, or the error that says why it takes none.
function checkTurnable(room: RoomRow) {
  if (room.state === 'expired') throw new AppError(410, 'room_expired', 'This room expired unmatched; it takes no turns.');
  if (room.state === 'completed' || room.turnsTaken >= ROOM_TURNS) {
    throw new AppError(409, 'room_completed', `All ${ROOM_TURNS} turns of this room are taken; read its report at GET /api/roleplay/{room_id}.`);
  }
  const slot = nextTurnOf(room);
  if (!slot) throw new AppError(409, 'room_not_joined', 'No partner has joined this room yet; turns start once one joins.');
  return slot;
}
