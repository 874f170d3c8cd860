import { performance } from 'node:perf_hooks';
import { ScoringInputError, scoreText } from '../../shared/scoring';
import type { ScoreInput, ScoreResult } from '../../shared/scoring';

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
