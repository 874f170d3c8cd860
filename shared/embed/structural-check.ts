import { analyze } from '../scoring/analyze';
import { detectSignals } from '../scoring/signals';
import { ISSUE_CODES, issueOf, sortIssues, type DraftIssue } from './issue-codes';

/**
 * The structural check of a draft: the engine's machine-like signals with no profile (so only
 * profile-free rules fire), each mapped to a code of the fixed list with its UTF-16 range. Pure
 * and deterministic; it returns offsets only, never a slice of the text, so nothing downstream
 * (the job's return value in Redis, the stored answer) can hold a quote of the draft.
 * @param draft - the draft text
 * @returns the issues in reading order
 */
export function structuralIssues(draft: string): DraftIssue[] {
  const out: DraftIssue[] = [];
  for (const hit of detectSignals(analyze(draft))) {
    const entry = ISSUE_CODES.get(hit.id);
    if (!entry || entry.source !== 'structural') continue;
    const spans = hit.spans.filter((s) => s.end > s.start);
    if (spans.length === 0) {
      out.push(issueOf(hit.id, 0, draft.length));
    } else if (entry.marks === 'range') {
      out.push(issueOf(hit.id, Math.min(...spans.map((s) => s.start)), Math.max(...spans.map((s) => s.end))));
    } else {
      for (const s of spans) out.push(issueOf(hit.id, s.start, s.end));
    }
  }
  return sortIssues(out);
}
