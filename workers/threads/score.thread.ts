import { performance } from 'node:perf_hooks';
import { ScoringInputError, scoreText } from '../../shared/scoring';
import type { ScoreInput, ScoreResult } from '../../shared/scoring';
import { rewriteText, type RewriteInput, type RewriteResult } from '../../shared/rewrite/rewrite';

/** The thread's answer: a result, or the scorer's refusal as a value (classes do not cross threads). */
export type ScoreThreadOutput =
  | { ok: true; result: ScoreResult; ms: number }
  | { ok: false; error: { code: string; field: string; message: string } };

/**
 * Thin thread entry over the engine; Piscina calls the default export.
 * @param input - what to score (the engine's input, structured-cloneable)
 * @returns the engine's result with the time spent, or the input error
 */
export default function scoreThread(input: ScoreInput): ScoreThreadOutput {
  const started = performance.now();
  try {
    const result = scoreText(input);
    return { ok: true, result, ms: performance.now() - started };
  } catch (err) {
    if (err instanceof ScoringInputError) {
      return { ok: false, error: { code: err.code, field: err.field, message: err.message } };
    }
    throw err;
  }
}

/** The thread's answer to a rewrite: the result, or the scorer's refusal as a value. */
export type RewriteThreadOutput =
  | { ok: true; result: RewriteResult; ms: number }
  | { ok: false; error: { code: string; field: string; message: string } };

/**
 * Named thread task `rewrite` (Piscina `run(input, { name: 'rewrite' })`): rewrites a reply
 * toward a profile, scoring each candidate edit with the same engine.
 * @param input - text, profile, delay and incoming message
 * @returns the rewrite with the time spent, or the input error
 */
export function rewrite(input: RewriteInput): RewriteThreadOutput {
  const started = performance.now();
  try {
    const result = rewriteText(input);
    return { ok: true, result, ms: performance.now() - started };
  } catch (err) {
    if (err instanceof ScoringInputError) {
      return { ok: false, error: { code: err.code, field: err.field, message: err.message } };
    }
    throw err;
  }
}
