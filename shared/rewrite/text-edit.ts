/** The style dials a rewrite turns: each edit names the one it serves. */
export type RewriteDial = 'canned-phrases' | 'length' | 'contractions' | 'register' | 'hedges' | 'directness' | 'empathy';

/**
 * One replacement in the ORIGINAL text: the half-open UTF-16 range `[start, end)` (JS string
 * indices) becomes `after`. An insertion has `start === end`.
 */
export interface SpanEdit {
  start: number;
  end: number;
  after: string;
}

/** A candidate change: one or more span edits that only make sense together (e.g. both `**` of a bold). */
export interface Candidate {
  dial: RewriteDial;
  /** Why, in a few words (e.g. `contract "do not"`). */
  reason: string;
  parts: SpanEdit[];
}

/** Whether two span edits touch the same text (two insertions at one point conflict too). */
function clash(a: SpanEdit, b: SpanEdit): boolean {
  if (a.start === a.end && b.start === b.end) return a.start === b.start;
  if (a.start === a.end) return a.start > b.start && a.start < b.end;
  if (b.start === b.end) return b.start > a.start && b.start < a.end;
  return Math.max(a.start, b.start) < Math.min(a.end, b.end);
}

/**
 * Whether a candidate conflicts with any of the given ones (they could not both apply to the original).
 * @param c - the candidate
 * @param others - candidates already taken
 * @returns true when some span edits clash
 */
export function conflicts(c: Candidate, others: readonly Candidate[]): boolean {
  return others.some((o) => o.parts.some((p) => c.parts.some((q) => clash(p, q))));
}

/** A span edit with where its replacement ends up in the rewritten text. */
export interface PlacedEdit extends SpanEdit {
  newStart: number;
  newEnd: number;
}

/**
 * Applies non-conflicting span edits to the original text, in offset order.
 * @param text - the original text
 * @param edits - span edits in original offsets, pairwise non-clashing
 * @returns the rewritten text and each edit with its range in it
 */
export function applyEdits(text: string, edits: readonly SpanEdit[]): { text: string; placed: PlacedEdit[] } {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let at = 0;
  const placed: PlacedEdit[] = [];
  for (const e of sorted) {
    out += text.slice(at, e.start);
    const newStart = out.length;
    out += e.after;
    placed.push({ ...e, newStart, newEnd: out.length });
    at = e.end;
  }
  return { text: out + text.slice(at), placed };
}
