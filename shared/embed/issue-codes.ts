/** How much an issue weighs on how human the draft reads. */
export type IssueSeverity = 'high' | 'medium' | 'low';

/** Where an issue code comes from: the engine's signals (both modes) or the contextual evaluator only. */
export type IssueSource = 'structural' | 'contextual';

/** One entry of the fixed issue-code list. */
export interface IssueCode {
  code: string;
  source: IssueSource;
  severity: IssueSeverity;
  /** What the code means, for the OpenAPI document. */
  meaning: string;
  /** A short fix shown beside the mark. */
  fix: string;
  /**
   * How the engine's evidence becomes marks: one per span, or one over the whole range its spans
   * cover (a rhythm across sentences has no single culprit).
   */
  marks: 'each-span' | 'range';
}

/** The version of the contextual evaluator (contract section 9). */
export const CONTEXTUAL_EVALUATOR = 'contextual-evaluator-1';

/** The version of the structural check: the engine's signal rules, mapped to this list. */
export const STRUCTURAL_EVALUATOR = 'structural-1';

// Structural codes are the engine's signal ids (shared/scoring/signals.ts) that fire without a
// profile; the profile-gated ones (no-contractions, length-mismatch) never fire here, so they are
// not listed. Severities follow the engine's: >= 0.5 or a hard fail is high, >= 0.2 medium.
const LIST: readonly IssueCode[] = [
  { code: 'ai-self-disclosure', source: 'structural', severity: 'high', marks: 'each-span', meaning: 'A canned AI disclaimer.', fix: 'Remove the disclaimer; answer as yourself.' },
  { code: 'assistant-boilerplate', source: 'structural', severity: 'high', marks: 'each-span', meaning: 'A stock assistant opener, closer or refusal.', fix: 'Drop the stock phrase and start with the point.' },
  { code: 'markdown-structure', source: 'structural', severity: 'medium', marks: 'each-span', meaning: 'Headings, lists, tables or bold markers in a chat reply.', fix: 'Write it as plain sentences.' },
  { code: 'excess-vocab', source: 'structural', severity: 'medium', marks: 'each-span', meaning: 'A word language models overuse.', fix: 'Use the plain everyday word.' },
  { code: 'uniform-sentences', source: 'structural', severity: 'medium', marks: 'range', meaning: 'Sentences of near-identical length.', fix: 'Vary the rhythm: mix a short sentence with a longer one.' },
  { code: 'signposting', source: 'structural', severity: 'medium', marks: 'each-span', meaning: 'Essay signposts ("it is worth noting", "in summary").', fix: 'Cut the signpost and say the thing.' },
  { code: 'generic-caveat', source: 'structural', severity: 'medium', marks: 'each-span', meaning: 'A stock caveat ("it depends", "it is always best to").', fix: 'Give the specific condition, or drop the caveat.' },
  { code: 'em-dash', source: 'structural', severity: 'low', marks: 'each-span', meaning: 'Frequent em dashes in casual writing.', fix: 'Use a comma or a full stop instead.' },
  { code: 'relentless-positivity', source: 'structural', severity: 'low', marks: 'each-span', meaning: 'Praise with no plain or hesitant word anywhere.', fix: 'Tone the praise down; say one plain thing.' },
  { code: 'ignores-situation', source: 'contextual', severity: 'high', marks: 'each-span', meaning: 'Does not answer what the situation asks for.', fix: 'Answer the actual question or request first.' },
  { code: 'tone-mismatch', source: 'contextual', severity: 'medium', marks: 'each-span', meaning: 'A tone that does not fit the situation (too cheerful, too stiff).', fix: 'Match the tone of the situation.' },
  { code: 'overpromise', source: 'contextual', severity: 'medium', marks: 'each-span', meaning: 'Promises or certainty the situation does not support.', fix: 'Promise only what you can do.' },
  { code: 'needless-apology', source: 'contextual', severity: 'low', marks: 'each-span', meaning: 'An apology where nothing went wrong.', fix: 'Drop the apology.' },
  { code: 'over-explaining', source: 'contextual', severity: 'low', marks: 'each-span', meaning: 'Explains what the reader already knows from the situation.', fix: 'Cut what the reader already knows.' },
];

/** The fixed, documented list of issue codes, by code. */
export const ISSUE_CODES: ReadonlyMap<string, IssueCode> = new Map(LIST.map((c) => [c.code, c]));

/** The codes the contextual evaluator may report (its own and the structural ones). */
export const CONTEXTUAL_CODES: readonly string[] = LIST.map((c) => c.code);

/** One marked issue of a draft: a code of the list, a half-open range of UTF-16 code units, severity and fix. */
export interface DraftIssue {
  code: string;
  /** First UTF-16 code unit of the marked range (as JavaScript strings index). */
  start: number;
  /** The code unit after the last one. */
  end: number;
  severity: IssueSeverity;
  fix: string;
}

/**
 * The issue of a code over a range, with its severity and fix from the list.
 * @param code - a code of {@link ISSUE_CODES}
 * @param start - first UTF-16 code unit
 * @param end - code unit after the last
 * @returns the issue
 * @throws Error when the code is not in the list (a programming error, never input)
 */
export function issueOf(code: string, start: number, end: number): DraftIssue {
  const entry = ISSUE_CODES.get(code);
  if (!entry) throw new Error(`unknown issue code ${code}`);
  return { code, start, end, severity: entry.severity, fix: entry.fix };
}

/**
 * Issues in reading order (start, then end, then code) without exact duplicates.
 * @param issues - issues from one or more evaluators
 * @returns a new sorted list
 */
export function sortIssues(issues: readonly DraftIssue[]): DraftIssue[] {
  const seen = new Set<string>();
  const out: DraftIssue[] = [];
  for (const i of [...issues].sort((a, b) => a.start - b.start || a.end - b.end || a.code.localeCompare(b.code))) {
    const key = `${i.code}:${i.start}:${i.end}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(i);
  }
  return out;
}
