import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { analyze } from '../../shared/scoring/analyze';
import { empathyFeatures, type EmpathyFeatures, type Mechanism } from '../../shared/scoring/empathy';
import { foldOf, readCsv } from '../lib/dev-data';
import { fitRidge } from '../lib/fit';
import { spearman } from '../lib/stats';

/** Version written into weights/empathy.json; bump it whenever the fit or its features change. */
export const EMPATHY_WEIGHTS_VERSION = 'empathy-1.0.0';

const WEIGHTS_PATH = resolve(__dirname, '..', '..', 'shared', 'scoring', 'weights', 'empathy.json');
const MECHANISMS: readonly Mechanism[] = ['er', 'ip', 'ex'];
const CAPS = [1, 2, 3, 4];
const LAMBDA = 1;

interface Item {
  features: EmpathyFeatures;
  total: number;
}

function rowOf(f: EmpathyFeatures, caps: Record<Mechanism, number>): number[] {
  return [...MECHANISMS.map((m) => f.levels[m]), ...MECHANISMS.map((m) => Math.min(f.sentences[m], caps[m])), f.warmth, f.contempt];
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Fits the empathy combination on EPITOME folds 1-4 (fold 0 stays held back for the eval's check):
 * ridge regression of total_0_6 on the three levels, the capped marker-sentence counts and valence,
 * with the caps chosen by training Spearman. Wrong-signed weights are set to 0 so markers can only raise
 * the value; the contempt penalty has a floor of one ER sentence. The weights go to
 * shared/scoring/weights/empathy.json.
 * @returns the fitted model block and its training Spearman
 */
export function fitEmpathy(): { model: Record<string, unknown>; trainSpearman: number } {
  const rows = readCsv('epitome', 'epitome_merged.csv').filter((r) => r.in_kumar2025_sample !== '1' && foldOf(r.rp_id) !== 0);
  const items: Item[] = rows.map((r) => ({ features: empathyFeatures(analyze(r.response_post), analyze(r.seeker_post)), total: Number(r.total_0_6) }));
  const y = items.map((i) => i.total);
  const names = ['er', 'ip', 'ex', 'erSentences', 'ipSentences', 'exSentences', 'warmth', 'contempt'];

  let best: { rho: number; caps: Record<Mechanism, number>; weights: number[] } | undefined;
  for (const er of CAPS) for (const ip of CAPS) for (const ex of CAPS) {
    const caps = { er, ip, ex };
    const X = items.map((i) => rowOf(i.features, caps));
    const model = fitRidge(names, X, y, LAMBDA);
    // Markers and warmth may only raise the value and contempt only lower it; a wrong-signed weight becomes 0.
    const weights = model.weights.map((w, j) => (names[j] === 'contempt' ? Math.min(0, w / model.scale[j]) : Math.max(0, w / model.scale[j])));
    const pred = X.map((row) => row.reduce((s, v, j) => s + v * weights[j], 0));
    const rho = spearman(pred, y);
    if (!best || rho > best.rho + 1e-9) best = { rho, caps, weights };
  }
  if (!best) throw new Error('no EPITOME rows to fit');

  const [erL, ipL, exL, erS, ipS, exS, warmth, contempt] = best.weights.map(round3);
  const model = {
    er: { level: erL, perSentence: erS, sentenceCap: best.caps.er },
    ip: { level: ipL, perSentence: ipS, sentenceCap: best.caps.ip },
    ex: { level: exL, perSentence: exS, sentenceCap: best.caps.ex },
    warmth,
    // Too few contemptuous replies in EPITOME to fit this (and the fitted weight comes out near 0), so
    // it has a floor: one contemptuous phrase cancels one sentence of emotional reaction.
    contempt: Math.max(-contempt, erS),
  };
  const config = JSON.parse(readFileSync(WEIGHTS_PATH, 'utf8')) as Record<string, unknown>;
  const out = {
    ...config,
    version: EMPATHY_WEIGHTS_VERSION,
    fit: { data: 'epitome reddit, folds 1-4 of foldOf(rp_id), in_kumar2025_sample = 0', n: items.length, target: 'total_0_6', method: `ridge lambda ${LAMBDA} on standardized features, wrong-signed weights set to 0, contempt floored at one ER sentence, caps by training Spearman`, trainSpearman: round3(best.rho) },
    model,
  };
  writeFileSync(WEIGHTS_PATH, JSON.stringify(out, null, 2) + '\n');
  return { model, trainSpearman: best.rho };
}

if (require.main === module) {
  const { model, trainSpearman } = fitEmpathy();
  const path = resolve(__dirname, '..', '..', 'shared', 'scoring', 'weights', 'empathy.json');
  const current = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  // Only the fitted model is replaced; the load settings and the calibration are kept.
  writeFileSync(path, JSON.stringify({ ...current, model }, null, 2) + '\n');
  console.log(`wrote ${path}`);
  console.log(`training Spearman ${trainSpearman.toFixed(3)}`);
}
