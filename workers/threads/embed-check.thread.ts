import { performance } from 'node:perf_hooks';
import { structuralIssues } from '../../shared/embed/structural-check';
import type { DraftIssue } from '../../shared/embed/issue-codes';

/** The thread's answer: the structural issues (offsets, no text) and the time they took. */
export interface EmbedCheckThreadOutput {
  issues: DraftIssue[];
  ms: number;
}

/**
 * Thread entry of the embedded check's structural pass, run on the scoring pool's threads
 * (Piscina's per-task `filename`): the engine's analysis is CPU work that must not block the
 * worker's event loop.
 * @param draft - the draft text
 * @returns the issues with the time spent
 */
export default function embedCheckThread(draft: string): EmbedCheckThreadOutput {
  const started = performance.now();
  const issues = structuralIssues(draft);
  return { issues, ms: performance.now() - started };
}
