import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { analyze } from '../../shared/scoring/analyze';
import { CONSTRUCTS, empathyFeatures, type EmpathyFeatures } from '../../shared/scoring/empathy';
import { annomiTherapistTurns, esconvStrategyTurns, foldOf, readCsv, wassaTurns } from '../lib/dev-data';
import { solve } from '../lib/fit';
import { auroc, ranks, spearman } from '../lib/stats';

/** Version written into weights/empathy.json; bump it whenever the fit or its features change. */
export const EMPATHY_WEIGHTS_VERSION = 'empathy-1.6.1';

const WEIGHTS_PATH = resolve(__dirname, '..', '..', 'shared', 'scoring', 'weights', 'empathy.json');
/**
 * The ridge strengths tried. Which one is used is itself chosen by leave-one-source-out (see
 * {@link chooseLambda}): the strength whose fits carry best to a source they did not read. Strong
 * shrinkage wins on these sources: weights near the theory prior transfer better than weights that
 * follow any three communities closely.
 */
export const LAMBDA_GRID: readonly number[] = [0.05, 0.2, 1, 5];
/**
 * The weight every feature starts from (one more sentence of a construct adds this much): the ridge
 * shrinks toward it instead of toward 0, so a construct the data rarely sees (validation is in about
 * 1% of replies) keeps the weight theory gives it, and the data moves the weights where it has evidence.
 */
const PRIOR = 0.25;
/** A feature whose univariate correlation runs against its expected sign by more than this in any one source is not empathy there: it is dropped. */
const SIGN_FLIP = 0.05;

/** The fit's columns: every construct, the specificity count, contempt and advice. */
export const FIT_FEATURES = [...CONSTRUCTS, 'specific', 'echo', 'contempt', 'advice'] as const;
export type FitFeature = (typeof FIT_FEATURES)[number];
/** Theory fixes each feature's sign: dismissal, phatic small talk, contempt and advice can only lower empathy. */
const NEGATIVE: ReadonlySet<FitFeature> = new Set<FitFeature>(['dismissal', 'phatic', 'contempt', 'advice']);

/** One rated reply of a source, with its fold for the in-source split. */
export interface EmpathyItem {
  id: string;
  text: string;
  incoming: string;
  /** The source's label: a rating, or 1/0 for a binary one. */
  y: number;
  /** 0 is the in-source held-back fold; the fit never reads it. */
  fold: number;
}

/** A rated source: its name, its licence and how its figure is read (Spearman or AUROC). */
export interface EmpathySource {
  name: string;
  licence: string;
  label: string;
  metric: 'spearman' | 'auroc';
  items: EmpathyItem[];
}

const EMOTIONAL_STRATEGIES = new Set(['Reflection of feelings', 'Affirmation and Reassurance', 'Approval and Reassurance', 'Restatement or Paraphrasing', 'Restatement']);
const PRACTICAL_STRATEGIES = new Set(['Information', 'Providing Suggestions', 'Direct Guidance']);

/**
 * The four rated sources the weights are fitted on, each from a different community and rated by
 * different people: EPITOME (Reddit peer support, crowd-rated mechanisms), WASSA 2023 (crowdworkers
 * discussing news, third-party empathy ratings), AnnoMI (counselling demonstrations, expert codes:
 * reflections vs other therapist turns) and ESConv (emotional-support chats, annotated strategies:
 * emotional vs practical). Fold 0 of each (WASSA: its dev split) is never fitted on.
 * @returns the sources
 */
export function empathySources(): EmpathySource[] {
  const epitome = readCsv('epitome', 'epitome_merged.csv')
    .filter((r) => r.in_kumar2025_sample !== '1')
    .map((r) => ({ id: r.rp_id, text: r.response_post, incoming: r.seeker_post, y: Number(r.total_0_6), fold: foldOf(r.rp_id) }));
  const wassa = wassaTurns()
    .filter((t) => t.words >= 5)
    .map((t) => ({ id: t.id, text: t.text, incoming: t.previous, y: t.empathy, fold: t.split === 'dev' ? 0 : 1 }));
  const annomi = annomiTherapistTurns()
    .filter((t) => t.text !== '')
    .map((t) => ({ id: t.id, text: t.text, incoming: t.client, y: t.reflection === 'none' ? 0 : 1, fold: foldOf(String(t.transcriptId)) }));
  const esconv = esconvStrategyTurns()
    .filter((t) => EMOTIONAL_STRATEGIES.has(t.strategy) || PRACTICAL_STRATEGIES.has(t.strategy))
    .map((t) => ({ id: t.id, text: t.reply, incoming: t.seekerContext, y: EMOTIONAL_STRATEGIES.has(t.strategy) ? 1 : 0, fold: foldOf(t.id.split(':')[0]) }));
  return [
    { name: 'epitome', licence: 'academic non-commercial', label: 'EPITOME total_0_6 (crowd-rated ER + IP + EX)', metric: 'spearman', items: epitome },
    { name: 'wassa23', licence: 'not stated (research only)', label: 'third-party empathy rating of chat turns >= 5 words', metric: 'spearman', items: wassa },
    { name: 'annomi', licence: 'not stated (research only)', label: 'expert-coded reflection vs other therapist utterance', metric: 'auroc', items: annomi },
    { name: 'esconv', licence: 'CC BY-NC 4.0', label: 'annotated emotional vs practical support strategy', metric: 'auroc', items: esconv },
  ];
}

/** The fit's row for one reply: log(1 + sentences) per construct and specificity, log(1 + echoed stems), contempt, log(1 + advice sentences). */
export function rowOf(f: EmpathyFeatures): number[] {
  return [...CONSTRUCTS.map((c) => Math.log1p(f.constructs[c])), Math.log1p(f.specific), Math.log1p(f.echo), f.contempt, Math.log1p(f.advice)];
}

/** A source's items measured once: the rows and labels the fits and the eval share. */
export interface MeasuredSource {
  source: EmpathySource;
  rows: number[][];
  y: number[];
  folds: number[];
}

/** Measures every item of every source once (no evidence spans). */
export function measureSources(sources: readonly EmpathySource[]): MeasuredSource[] {
  return sources.map((source) => ({
    source,
    rows: source.items.map((it) => rowOf(empathyFeatures(analyze(it.text), it.incoming.trim() ? analyze(it.incoming) : undefined, false))),
    y: source.items.map((it) => it.y),
    folds: source.items.map((it) => it.fold),
  }));
}

/** Rows of a measured source restricted to some items. */
export function subset(m: MeasuredSource, keep: (i: number) => boolean): MeasuredSource {
  const idx = m.rows.map((_, i) => i).filter(keep);
  return { source: m.source, rows: idx.map((i) => m.rows[i]), y: idx.map((i) => m.y[i]), folds: idx.map((i) => m.folds[i]) };
}

/** Labels turned into centred ranks scaled to unit variance, so a 0-6 rating and a 0/1 code weigh alike. */
function rankTarget(y: readonly number[]): number[] {
  const r = ranks(y);
  const mean = r.reduce((s, v) => s + v, 0) / r.length;
  const sd = Math.sqrt(r.reduce((s, v) => s + (v - mean) ** 2, 0) / r.length) || 1;
  return r.map((v) => (v - mean) / sd);
}

/** The fitted combination: one weight per feature (>= 0, applied with the feature's sign). */
export type EmpathyModel = Record<FitFeature, number>;

/**
 * Which features keep a sign across the sources: the univariate Spearman of each feature against
 * each source's label, and the features whose correlation runs against the expected sign in some
 * source by more than {@link SIGN_FLIP}.
 */
export function signFlips(measured: readonly MeasuredSource[]): { correlations: Record<string, Record<FitFeature, number>>; dropped: FitFeature[] } {
  const correlations: Record<string, Record<FitFeature, number>> = {};
  const dropped = new Set<FitFeature>();
  for (const m of measured) {
    const row = {} as Record<FitFeature, number>;
    FIT_FEATURES.forEach((f, j) => {
      const x = m.rows.map((r) => r[j]);
      const rho = x.some((v) => v !== x[0]) ? spearman(x, m.y) : 0;
      row[f] = rho;
      const expected = NEGATIVE.has(f) ? -1 : 1;
      if (rho * expected < -SIGN_FLIP) dropped.add(f);
    });
    correlations[m.source.name] = row;
  }
  return { correlations, dropped: FIT_FEATURES.filter((f) => dropped.has(f)) };
}

/**
 * Fits the weights on several sources at once: every source weighs the same whatever its size, its
 * labels are ranked within it, and a ridge regression (on raw feature units, so a weight reads as
 * "one more sentence of this") is solved with each weight's sign fixed by theory; a weight that
 * comes out on the wrong side is set to 0 and the rest refitted. Features that flip sign between
 * the sources are left out beforehand.
 * @param measured - the training part of each source
 * @param exclude - features to leave out
 * @param lambda - the ridge strength (toward {@link PRIOR})
 * @returns the weights, all >= 0 (negative features are subtracted)
 */
export function fitEmpathyOn(measured: readonly MeasuredSource[], exclude: readonly FitFeature[] = [], lambda = LAMBDA_GRID[0]): EmpathyModel {
  const active = new Set(FIT_FEATURES.filter((f) => !exclude.includes(f)));
  const sign = (f: FitFeature) => (NEGATIVE.has(f) ? -1 : 1);
  for (;;) {
    const cols = FIT_FEATURES.map((f, j) => [f, j] as const).filter(([f]) => active.has(f));
    const d = cols.length;
    const A = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    const b = new Array<number>(d + 1).fill(0);
    for (const m of measured) {
      const t = rankTarget(m.y);
      const w = 1 / m.rows.length;
      m.rows.forEach((row, i) => {
        const x = [1, ...cols.map(([, j]) => row[j])];
        for (let p = 0; p <= d; p++) {
          b[p] += w * x[p] * t[i];
          for (let q = 0; q <= d; q++) A[p][q] += w * x[p] * x[q];
        }
      });
    }
    for (let p = 1; p <= d; p++) {
      A[p][p] += lambda;
      b[p] += lambda * PRIOR * sign(cols[p - 1][0]);
    }
    const beta = solve(A, b);
    const wrong = cols.filter(([f], k) => beta[k + 1] * sign(f) < 0);
    if (wrong.length === 0) {
      const model = Object.fromEntries(FIT_FEATURES.map((f) => [f, 0])) as EmpathyModel;
      cols.forEach(([f], k) => (model[f] = round3(Math.abs(beta[k + 1]))));
      return model;
    }
    for (const [f] of wrong) active.delete(f);
  }
}

/** The model's raw strength for one row (the engine's measure before calibration). */
export function strengthOf(model: EmpathyModel, row: readonly number[]): number {
  let s = 0;
  FIT_FEATURES.forEach((f, j) => (s += (NEGATIVE.has(f) ? -1 : 1) * model[f] * row[j]));
  return s;
}

/** A source's figure for some scores: Spearman against its rating, or AUROC of its binary label. */
export function figureOf(m: MeasuredSource, scores: readonly number[]): number {
  return m.source.metric === 'spearman' ? spearman(scores, m.y) : auroc(scores, m.y.map((v) => v === 1));
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Fits on some sources with their own sign-flip selection and ridge strength: what "fit on these" means everywhere. */
export function fitSelected(measured: readonly MeasuredSource[], lambda: number): EmpathyModel {
  return fitEmpathyOn(measured, signFlips(measured).dropped, lambda);
}

/**
 * The ridge strength chosen by leave-one-source-out among the given sources: each source is held out
 * in turn, the rest fitted (with their own sign-flip selection) at every strength of the grid, and
 * the strength with the best summed figure on the held-out sources wins (ties: the weaker one).
 * @param measured - the sources the choice may read (never the one an evaluation holds out)
 * @returns the chosen lambda
 */
export function chooseLambda(measured: readonly MeasuredSource[]): number {
  let best = LAMBDA_GRID[0];
  let bestSum = -Infinity;
  for (const lambda of LAMBDA_GRID) {
    let sum = 0;
    measured.forEach((held, k) => {
      const model = fitSelected(measured.filter((_, j) => j !== k), lambda);
      sum += figureOf(held, held.rows.map((r) => strengthOf(model, r)));
    });
    if (sum > bestSum + 1e-9) {
      bestSum = sum;
      best = lambda;
    }
  }
  return best;
}

/**
 * The shipped fit: the four sources' training folds, with the sign-flipping features left out and
 * the ridge strength chosen by leave-one-source-out.
 * @returns the weights, the chosen lambda, the dropped features, the per-source correlations and training figures
 */
export function fitEmpathy(): { model: EmpathyModel; lambda: number; dropped: FitFeature[]; correlations: Record<string, Record<FitFeature, number>>; train: Record<string, { n: number; value: number }> } {
  const measured = measureSources(empathySources()).map((m) => subset(m, (i) => m.folds[i] !== 0));
  const { correlations, dropped } = signFlips(measured);
  const lambda = chooseLambda(measured);
  const model = fitEmpathyOn(measured, dropped, lambda);
  const train: Record<string, { n: number; value: number }> = {};
  for (const m of measured) train[m.source.name] = { n: m.rows.length, value: round3(figureOf(m, m.rows.map((r) => strengthOf(model, r)))) };
  return { model, lambda, dropped, correlations, train };
}

if (require.main === module) {
  const { model, lambda, dropped, correlations, train } = fitEmpathy();
  const current = JSON.parse(readFileSync(WEIGHTS_PATH, 'utf8')) as Record<string, unknown>;
  const sources = empathySources().map((s) => ({ name: s.name, licence: s.licence, label: s.label, rows: 'fold != 0 (wassa23: train split)', trainFigure: train[s.name] }));
  const fit = {
    sources,
    vocabulary:
      'none learned from data: every construct is a hand-written rule or word list (lexicons/empathy.ts); the er, ip-share and ex-ask lists, which once held phrases found by mining EPITOME, were rewritten in engine 1.6.1 as constructions from published theory (lexicons/empathy-theory.ts); the data set only the weights below',
    provenance: {
      model: `each of the ${Object.keys(model).length} weights is one number fitted jointly on ${sources.map((s) => `${s.name} (${s.licence})`).join(', ')}; no phrase, word or n-gram was taken from any of them`,
      calibration: 'two numbers (zero, one) set by hand so that the EPITOME and ESConv reply quartiles stay where engine 1.4.0 put them (see calibration.note)',
      settings: 'disclosureFirstPerson, valenceScale and load are hand-set and kept across refits',
      lexicons: 'lexicons/empathy.ts and lexicons/empathy-theory.ts: written from Sharma et al. 2020 (definitions of emotional reactions, interpretations and explorations), Miller & Rollnick (open questions, affirmations, simple and complex reflections), Linehan (levels of validation) and general emotion vocabularies; no data set',
    },
    method: `ridge lambda ${lambda} (chosen from ${LAMBDA_GRID.join(', ')} by leave-one-source-out), shrunk toward a prior weight of ${PRIOR} per feature (signed), on log(1 + sentences) per construct and specificity, contempt and log(1 + advice sentences), labels ranked within each source and every source weighted equally; signs fixed by theory (constructs >= 0; dismissal, phatic, contempt and advice <= 0)`,
    selection: `a feature whose univariate Spearman runs against its sign by more than ${SIGN_FLIP} in any source is left out`,
    dropped,
    correlations: Object.fromEntries(Object.entries(correlations).map(([k, v]) => [k, Object.fromEntries(Object.entries(v).map(([f, r]) => [f, round3(r)]))])),
  };
  // Only the fitted model is replaced; the load settings and the calibration are kept.
  writeFileSync(WEIGHTS_PATH, JSON.stringify({ ...current, version: EMPATHY_WEIGHTS_VERSION, model, fit }, null, 2) + '\n');
  console.log(`wrote ${WEIGHTS_PATH}`);
  console.log('dropped', dropped);
  console.log(model);
  console.log(train);
}
