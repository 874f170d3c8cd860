import type { RewriteResult } from '../../shared/rewrite/rewrite';

/** What the rewrite never does, said in every response. */
export const HONESTY_NOTE =
  'The rewrite changes style only: it never makes the text claim to be human or deny being an AI, and it keeps any AI self-disclosure the text had.';

/**
 * The response body of a paid rewrite. The payment pipeline adds what every paid response carries
 * (referral code, reward tokens, payment).
 * @param rewrite - the worker's rewrite
 * @param resultId - the result's public id
 * @returns the body (stored as is for replays)
 */
export function presentRewrite(rewrite: RewriteResult, resultId: string): Record<string, unknown> {
  return {
    result_id: resultId,
    target_profile: rewrite.profile,
    scorer_version: rewrite.scorer_version,
    changed: rewrite.changed,
    rewritten_text: rewrite.text,
    note: rewrite.note,
    before: rewrite.before,
    after: rewrite.after,
    edits: rewrite.edits,
    improvement: rewrite.improvement,
    honesty: HONESTY_NOTE,
  };
}
