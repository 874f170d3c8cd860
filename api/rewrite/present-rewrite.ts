import type { RewriteEdit, RewriteResult } from '../../shared/rewrite/rewrite';

/** What the rewrite never does, said in every response. */
export const HONESTY_NOTE =
  'The rewrite changes style only: it never makes the text claim to be human or deny being an AI, and it keeps any AI self-disclosure the text had.';

/** An edit as stored: offsets and the replacement, without the original words it replaced. */
type StoredEdit = Omit<RewriteEdit, 'before'>;

/**
 * The stored body of a paid rewrite (kept for replays). The reply's text is never stored: the
 * body keeps each edit's offsets and replacement, and {@link withText} rebuilds the rewritten
 * text and each edit's original words from the request at every delivery (a replay must send the
 * same request). The payment pipeline adds what every paid response carries (referral code,
 * reward tokens, payment).
 * @param rewrite - the worker's rewrite
 * @param resultId - the result's public id
 * @returns the body to store
 */
export function presentRewrite(rewrite: RewriteResult, resultId: string): Record<string, unknown> {
  const edits: StoredEdit[] = rewrite.edits.map(({ before: _before, ...rest }) => rest);
  return {
    result_id: resultId,
    target_profile: rewrite.profile,
    scorer_version: rewrite.scorer_version,
    changed: rewrite.changed,
    note: rewrite.note,
    before: rewrite.before,
    after: rewrite.after,
    edits,
    improvement: rewrite.improvement,
    honesty: HONESTY_NOTE,
  };
}

/**
 * The text fields of a delivered rewrite, rebuilt from the stored edits and the request's text:
 * `rewritten_text` and each edit's `before`.
 * @param stored - the stored body
 * @param original - the request's `proposed_text`
 * @returns the fields to add to the delivered body
 */
export function withText(stored: Record<string, unknown> | null, original: string): Record<string, unknown> {
  const edits = (stored?.edits ?? []) as StoredEdit[];
  let text = '';
  let at = 0;
  for (const e of edits) {
    text += original.slice(at, e.start) + e.after;
    at = e.end;
  }
  text += original.slice(at);
  return {
    rewritten_text: text,
    edits: edits.map((e) => ({ ...e, before: original.slice(e.start, e.end) })),
  };
}
