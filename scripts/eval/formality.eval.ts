import { analyze } from '../../shared/scoring/analyze';
import { measureFormality } from '../../shared/scoring/formality';
import { foldOf } from '../lib/dev-data';
import { spearman } from '../lib/stats';
import { loadSquinky } from '../fit/fit-formality';
import { atLeast, info, type EvalRow } from './eval-row';

const DATASET = 'squinky-formality';

/**
 * Spearman rho of measureFormality against the SQUINKY! formality ratings: on every sentence
 * (the bar from docs/scoring.md §9) and on fold 0, which the fit never saw.
 * @returns the formality rows of the eval table
 */
export async function evaluate(): Promise<EvalRow[]> {
  const rows = loadSquinky();
  const measured = rows.map((r) => measureFormality(analyze(r.text)).value);
  const truth = rows.map((r) => r.y);
  const held = rows.map((r, i) => (foldOf(r.id) === 0 ? i : -1)).filter((i) => i >= 0);
  return [
    atLeast('Spearman formality', `${DATASET} all`, rows.length, spearman(measured, truth), 0.6),
    info('Spearman formality', `${DATASET} fold 0 (held back from fit)`, held.length, spearman(held.map((i) => measured[i]), held.map((i) => truth[i]))),
  ];
}
