import { performance } from 'node:perf_hooks';
import { ScoringInputError, loadLanguageDetector, scoreText, scoreWeaknessMap } from '../../shared/scoring';
import type { ScoreInput, ScoreResult, WeaknessMapResult } from '../../shared/scoring';
import { rewriteText, type RewriteInput, type RewriteResult } from '../../shared/rewrite/rewrite';

/** A task's answer: its result with the time spent, or the scorer's refusal as a value (classes do not cross threads). */
export type ThreadOutput<T> =
  | { ok: true; result: T; ms: number }
  | { ok: false; error: { code: string; field: string; message: string } };

/** The scoring task's answer. */
export type ScoreThreadOutput = ThreadOutput<ScoreResult>;

/** What the weakness-map task takes: the reply, and how many of the worst profiles get a full verdict. */
export interface WeaknessMapThreadInput {
  input: ScoreInput;
  weakest: number;
}

/** The weakness-map task's answer. */
export type WeaknessMapThreadOutput = ThreadOutput<WeaknessMapResult>;

/** The rewrite task's answer. */
export type RewriteThreadOutput = ThreadOutput<RewriteResult>;

// Every score checks the reply's language: load the detector with the thread, not on its first foreign text.
loadLanguageDetector();

// Runs one engine call, timed; the scorer's input refusal becomes a value, anything else throws.
function timed<T>(work: () => T): ThreadOutput<T> {
  const started = performance.now();
  try {
    const result = work();
    return { ok: true, result, ms: performance.now() - started };
  } catch (err) {
    if (err instanceof ScoringInputError) {
      return { ok: false, error: { code: err.code, field: err.field, message: err.message } };
    }
    throw err;
  }
}

/**
 * Thin thread entry over the engine; Piscina calls the default export.
 * @param input - what to score (the engine's input, structured-cloneable)
 * @returns the engine's result with the time spent, or the input error
 */
export default function scoreThread(input: ScoreInput): ScoreThreadOutput {
  return timed(() => scoreText(input));
}

/**
 * Thread entry of the stress test (Piscina `name` 'weaknessMapThread', on the scoring pool's
 * threads): the reply against all 28 profiles, measured once, with the worst profiles' full verdicts.
 * @param task - the reply and how many worst profiles to detail
 * @returns the map with the time spent, or the input error
 */
export function weaknessMapThread(task: WeaknessMapThreadInput): WeaknessMapThreadOutput {
  return timed(() => scoreWeaknessMap(task.input, task.weakest));
}

/**
 * Named thread task `rewrite` (Piscina `run(input, { name: 'rewrite' })`): rewrites a reply
 * toward a profile, scoring each candidate edit with the same engine.
 * @param input - text, profile, delay and incoming message
 * @returns the rewrite with the time spent, or the input error
 */
export function rewrite(input: RewriteInput): RewriteThreadOutput {
  return timed(() => rewriteText(input));
}
