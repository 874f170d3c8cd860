import { performance } from 'node:perf_hooks';
import { checkScript, type ScriptCheckInput, type ScriptCheckResult } from '../../shared/script-check/check-script';

/** The thread's answer: the check and the time it took. */
export interface ScriptCheckThreadOutput {
  check: ScriptCheckResult;
  ms: number;
}

/**
 * Thread entry of the script check, run on the scoring pool's threads (Piscina's per-task
 * `filename`): phone parsing over long, digit-heavy texts takes seconds, which must not block the
 * worker's event loop (lock renewal, the settlement worker).
 * @param input - the reply and its approved material (structured-cloneable)
 * @returns the check with the time spent
 */
export default function scriptCheckThread(input: ScriptCheckInput): ScriptCheckThreadOutput {
  const started = performance.now();
  const check = checkScript(input);
  return { check, ms: performance.now() - started };
}
