import { performance } from 'node:perf_hooks';
import { ScoringInputError, scoreText, scoreWeaknessMap } from '../../shared/scoring';
import type { ScoreInput, ScoreResult, WeaknessMapResult } from '../../shared/scoring';

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

/** What the weakness-map task takes: the reply, and how many of the worst profiles get a full verdict. */
export interface WeaknessMapThreadInput {
  input: ScoreInput;
  weakest: number;
}

/** The weakness-map task's answer: the map, or the scorer's refusal as a value. */
export type WeaknessMapThreadOutput =
  | { ok: true; result: WeaknessMapResult; ms: number }
  | { ok: false; error: { code: string; field: string; message: string } };

/**
 * Thread entry of the stress test (Piscina `name` 'weaknessMapThread'; it runs on the scoring pool's threads): the reply against all 28 profiles, measured once, with the
 * worst profiles' full verdicts.
 * @param task - the reply and how many worst profiles to detail
 * @returns the map with the time spent, or the input error
 */
export function weaknessMapThread(task: WeaknessMapThreadInput): WeaknessMapThreadOutput {
  const started = performance.now();
  try {
    const result = scoreWeaknessMap(task.input, task.weakest);
    return { ok: true, result, ms: performance.now() - started };
  } catch (err) {
    if (err instanceof ScoringInputError) {
      return { ok: false, error: { code: err.code, field: err.field, message: err.message } };
    }
    throw err;
  }
}
