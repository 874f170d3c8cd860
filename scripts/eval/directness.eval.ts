import { analyze } from '../../shared/scoring/analyze';
import { measureDirectness } from '../../shared/scoring/directness';
import { foldOf } from '../lib/dev-data';
import { auroc, spearman } from '../lib/stats';
import { loadWikipediaPoliteness, type PolitenessRow } from '../fit/fit-directness';
import { atMost, info, type EvalRow } from './eval-row';

const DATASET = 'stanford-politeness wikipedia';

/** Indices of the bottom and top quartile by politeness (the paper's binary setting). */
function extremeQuartiles(rows: PolitenessRow[]): number[] {
  const sorted = rows.map((r) => r.politeness).sort((a, b) => a - b);
  const low = sorted[Math.floor(sorted.length / 4)];
  const high = sorted[Math.floor((3 * sorted.length) / 4)];
  return rows.map((r, i) => (r.politeness <= low || r.politeness >= high ? i : -1)).filter((i) => i >= 0);
}

/**
 * Directness against rated politeness: Spearman rho on every request (it should be strongly
 * negative), on the held-back fold 0, and the AUROC for telling the impolite bottom quartile
 * from the polite top quartile by directness.
 * @returns the directness rows of the eval table
 */
export async function evaluate(): Promise<EvalRow[]> {
  const rows = loadWikipediaPoliteness();
  const measured = rows.map((r) => measureDirectness(analyze(r.text)).value);
  const truth = rows.map((r) => r.politeness);
  const held = rows.map((r, i) => (foldOf(r.id) === 0 ? i : -1)).filter((i) => i >= 0);
  const extremes = extremeQuartiles(rows);
  const median = [...truth].sort((a, b) => a - b)[Math.floor(truth.length / 2)];
  return [
    // Dev holds one politeness source (Wikipedia requests); the Stack Exchange half is held out. So the
    // out-of-community figure cannot be measured here: the row says so instead of passing a proxy off.
    info('OOD Spearman directness vs politeness', 'not measurable: dev has no second politeness source', 0, NaN),
    atMost('in-domain Spearman directness vs politeness', `${DATASET} all`, rows.length, spearman(measured, truth), -0.4),
    info('in-domain Spearman directness vs politeness', `${DATASET} fold 0 (held back from fit)`, held.length, spearman(held.map((i) => measured[i]), held.map((i) => truth[i]))),
    info(
      'AUROC directness, impolite quartile',
      `${DATASET} top vs bottom quartile`,
      extremes.length,
      auroc(extremes.map((i) => measured[i]), extremes.map((i) => truth[i] < median)),
    ),
  ];
}
