import type { Redis } from 'ioredis';
import { countInWindow, overLimitError } from '../../http/fixed-window';

/** The window of the pilot's per-participant limits. */
export const PILOT_WINDOW_SECONDS = 60;

/** Posts per participant per window, by kind: a reply costs the sponsor an agent call; feedback is one rating per turn anyway. */
export const PILOT_LIMITS = { reply: 12, feedback: 30 } as const;

/**
 * Takes one slot of a participant's per-minute limit (a fixed window counted in Redis, shared by
 * every web process). The key holds the participant's random id, never the token.
 * @param redis - the producer connection
 * @param prefix - the queue prefix (keeps test suites apart)
 * @param kind - which limit
 * @param participantId - the participant
 * @throws AppError 429 pilot_rate_limited with Retry-After
 */
export async function takePilotSlot(redis: Redis, prefix: string, kind: keyof typeof PILOT_LIMITS, participantId: string): Promise<void> {
  const limit = PILOT_LIMITS[kind];
  const counted = await countInWindow(redis, `${prefix}aei-pilot:rate:${kind}:${participantId}`, PILOT_WINDOW_SECONDS);
  if (counted.count > limit) {
    throw overLimitError('pilot_rate_limited', `At most ${limit} ${kind} posts per ${PILOT_WINDOW_SECONDS} s per participant.`, counted, { limit, window_seconds: PILOT_WINDOW_SECONDS });
  }
}
