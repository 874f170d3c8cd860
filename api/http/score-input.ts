import type { ScoreInput } from '../../shared/scoring';

/** The reply fields a scoring request body carries (names as in the interface description). */
export interface ReplyFields {
  proposed_text: string;
  response_delay_seconds?: number;
  incoming_message?: string;
  target_profile?: string;
}

/**
 * The engine's input for a validated request body: the one score input type from the HTTP body,
 * through the job, to the scoring thread.
 * @param body - the validated reply fields
 * @param deep - deep tier (contributions, evidence, rewrite guidance)
 * @returns the engine input
 */
export function scoreInputFrom(body: ReplyFields, deep = false): ScoreInput {
  return {
    text: body.proposed_text,
    delaySeconds: body.response_delay_seconds,
    incoming: body.incoming_message,
    profile: body.target_profile,
    deep,
  };
}
