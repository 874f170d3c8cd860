import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { analyze } from '../../shared/scoring/analyze';
import { empathyFeatures, type EmpathyFeatures, type Mechanism } from '../../shared/scoring/empathy';
import { foldOf, readCsv } from '../lib/dev-data';
import { fitRidge } from '../lib/fit';
import { spearman } from '../lib/stats';

/** Version written into weights/empathy.json; bump it whenever the fit or its features change. */
export const EMPATHY_WEIGHTS_VERSION = 'empathy-1.4.0';

const WEIGHTS_PATH = resolve(__dirname, '..', '..', 'shared', 'scoring', 'weights', 'empathy.json');
const MECHANISMS: readonly Mechanism[] = ['er', 'ip', 'ex'];
const LAMBDA = 1;
const NAMES = ['er', 'ip', 'ex', 'contempt', 'advice'];

/** The fit's row: log(1 + sentences) per mechanism, contempt, log(1 + advice sentences); the measure uses the same. */
function rowOf(f: EmpathyFeatures): number[] {
  return [...MECHANISMS.map((m) => Math.log1p(f.sentences[m])), f.contempt, Math.log1p(f.advice)];
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Fits the empathy combination on EPITOME folds 1-4 (fold 0 stays held back for the eval's check;
 * ESConv is never read): ridge regression of total_0_6 on the three mechanisms' log sentence counts,
 * contempt and advice-giving. Five weights, signs fixed by theory: a mechanism can only raise the
 * value, contempt and advice only lower it (a wrong-signed weight becomes 0). Contempt has a floor
 * of one ER sentence: EPITOME has too few contemptuous replies to fit it.
 * @returns the fitted model block and its training Spearman
 */
export function fitEmpathy(): { model: Record<string, number>; trainSpearman: number; n: number } {
  const rows = readCsv('epitome', 'epitome_merged.csv').filter((r) => r.in_kumar2025_sample !== '1' && foldOf(r.rp_id) !== 0);
  const X = rows.map((r) => rowOf(empathyFeatures(analyze(r.response_post), analyze(r.seeker_post), false)));
  const y = rows.map((r) => Number(r.total_0_6));
  const fitted = fitRidge(NAMES, X, y, LAMBDA);
  const raw = fitted.weights.map((w, j) => w / fitted.scale[j]);
  const [er, ip, ex, contempt, advice] = raw.map((w, j) => (j < 3 ? Math.max(0, w) : Math.max(0, -w)));
  const model = { er: round3(er), ip: round3(ip), ex: round3(ex), contempt: round3(Math.max(contempt, er * Math.LN2)), advice: round3(advice) };
  const w = [model.er, model.ip, model.ex, -model.contempt, -model.advice];
  const trainSpearman = spearman(X.map((row) => row.reduce((s, v, j) => s + v * w[j], 0)), y);
  return { model, trainSpearman, n: rows.length };
}

if (require.main === module) {
  const { model, trainSpearman, n } = fitEmpathy();
  const current = JSON.parse(readFileSync(WEIGHTS_PATH, 'utf8')) as Record<string, unknown>;
  const fit = {
    data: 'epitome reddit, folds 1-4 of foldOf(rp_id), in_kumar2025_sample = 0 (ESConv is never read by the fit)',
    n,
    target: 'total_0_6',
    method: `ridge lambda ${LAMBDA} on standardized log(1 + sentences) per mechanism, contempt and log(1 + advice sentences); signs fixed (mechanisms >= 0, contempt and advice <= 0), contempt floored at one ER sentence`,
    trainSpearman: round3(trainSpearman),
  };
  // Only the fitted model is replaced; the load settings and the calibration are kept.
  writeFileSync(WEIGHTS_PATH, JSON.stringify({ ...current, version: EMPATHY_WEIGHTS_VERSION, model, fit }, null, 2) + '\n');
  console.log(`wrote ${WEIGHTS_PATH}`);
  console.log(`training Spearman ${trainSpearman.toFixed(3)}`, model);
}
