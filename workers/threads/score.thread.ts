import { performance } from 'node:perf_hooks';
import { ScoringInputError, scoreText } from '../../shared/scoring';
import type { ScoreResult } from '../../shared/scoring';

/** One scoring task, structured-cloneable. */
export interface ScoreThreadInput {
  text: string;
  delaySeconds?: number;
  incoming?: string;
  profile?: string;
  deep: boolean;
}

/** The thread's answer: a result, or the scorer's refusal as a value (classes do not cross threads). */
export type ScoreThreadOutput =
  | { ok: true; result: ScoreResult; ms: number }
  | { ok: false; error: { code: string; field: string; message: string } };

/**
 * Thin thread entry over the engine; Piscina calls the default export.
 * @param input - what to score
 * @returns the engine's result with the time spent, or the input error
 */
export default function scoreThread(input: ScoreThreadInput): ScoreThreadOutput {
  const started = performance.now();
  try {
    const result = scoreText({
      text: input.text,
      delaySeconds: input.delaySeconds,
      incoming: input.incoming,
      profile: input.profile,
      deep: input.deep,
    });
    return { ok: true, result, ms: performance.now() - started };
  } catch (err) {
    if (err instanceof ScoringInputError) {
      return { ok: false, error: { code: err.code, field: err.field, message: err.message } };
    }
    throw err;
  }
}
