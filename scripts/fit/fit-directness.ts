import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { analyze } from '../../shared/scoring/analyze';
import { DIRECTNESS_FEATURES, directnessFeatures, type DirectnessFeature, type DirectnessWeights } from '../../shared/scoring/directness';
import current from '../../shared/scoring/weights/directness.json';
import { linearPredict, type LinearModel } from '../../shared/scoring/math';
import { foldOf, readCsv } from '../lib/dev-data';
import { fitLogistic, fitRidge } from '../lib/fit';
import { spearman } from '../lib/stats';

/** Bump on every refit that changes the frozen weights. */
const VERSION = 'directness-1.0.0';

/** Text-only features the model uses; answerFirst and preamble need an incoming message. */
const MODEL_FEATURES: DirectnessFeature[] = DIRECTNESS_FEATURES.filter((f) => f !== 'answerFirst' && f !== 'preamble' && f !== 'hedging');
const LAMBDA = 10;

/** One rated request reduced to what the fit needs. */
export interface PolitenessRow {
  id: string;
  text: string;
  /** Normalized politeness score (mean annotator z-score, higher = more polite). */
  politeness: number;
}

/**
 * Loads the Wikipedia requests of the Stanford Politeness Corpus.
 * @returns rows in file order
 */
export function loadWikipediaPoliteness(): PolitenessRow[] {
  return readCsv('stanford-politeness', 'wikipedia.annotated.csv').map((r) => ({
    id: r['Id'],
    text: r['Request'],
    politeness: Number(r['Normalized Score']),
  }));
}

/**
 * Logistic labels: 1 for requests rated less polite than the training median. The half split keeps
 * every rated request in the fit and, unlike soft rank targets (same rho, values squeezed into
 * 0.2..0.8), spreads the output over the 0.05..0.95 range the profile targets use.
 */
function lessPoliteHalf(rows: PolitenessRow[]): number[] {
  const sorted = rows.map((r) => r.politeness).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  return rows.map((r) => (r.politeness < median ? 1 : 0));
}

function matrix(rows: PolitenessRow[], features: readonly DirectnessFeature[]): number[][] {
  return rows.map((r) => {
    const f = directnessFeatures(analyze(r.text));
    return features.map((name) => f[name]);
  });
}

function predict(model: LinearModel, X: number[][]): number[] {
  return X.map((x) => linearPredict(model, Object.fromEntries(model.features.map((f, j) => [f, x[j]]))).value);
}

function fit(train: PolitenessRow[], X: number[][], features: DirectnessFeature[], lambda: number): LinearModel {
  return fitLogistic(features, X, lessPoliteHalf(train), lambda, 50);
}

/**
 * Fits the directness logistic model on folds 1-4 of the Wikipedia politeness requests and
 * returns the weights file it would write.
 * @param rows - the rated requests (defaults to the whole Wikipedia file)
 * @returns the new weights (lexicon and hand-set incoming terms carried over) and the fold-0 rho
 */
export function fitDirectness(rows: PolitenessRow[] = loadWikipediaPoliteness()): { weights: DirectnessWeights; heldBackSpearman: number } {
  const train = rows.filter((r) => foldOf(r.id) !== 0);
  const test = rows.filter((r) => foldOf(r.id) === 0);
  const model = fit(train, matrix(train, MODEL_FEATURES), MODEL_FEATURES, LAMBDA);
  const weights: DirectnessWeights = {
    version: VERSION,
    fitted: {
      data: 'stanford-politeness/wikipedia.annotated.csv, folds 1-4 of foldOf(Id)',
      target: '1 when Normalized Score is below the training median (less polite half), else 0',
      method: `L2 logistic regression (IRLS), lambda ${LAMBDA}, standardized features`,
      n: train.length,
      incoming: 'answerFirst and preamble are hand-set log-odds (no incoming message in the corpus)',
      mitigation: 'hedging is hand-set log-odds per unit of hesitation (requests rarely hedge)',
      baseline: 'hand-set value of a reply with no feature fired; replaces the fitted intercept at run time',
    },
    lexicon: (current as DirectnessWeights).lexicon,
    model,
    incoming: (current as DirectnessWeights).incoming,
    mitigation: (current as DirectnessWeights).mitigation,
    baseline: (current as DirectnessWeights).baseline,
  };
  const heldBackSpearman = spearman(predict(model, matrix(test, MODEL_FEATURES)), test.map((r) => r.politeness));
  return { weights, heldBackSpearman };
}

function explore(rows: PolitenessRow[]): void {
  const train = rows.filter((r) => foldOf(r.id) !== 0);
  const test = rows.filter((r) => foldOf(r.id) === 0);
  const Xtrain = matrix(train, MODEL_FEATURES);
  const Xtest = matrix(test, MODEL_FEATURES);
  const ytest = test.map((r) => r.politeness);
  const y = train.map((r) => r.politeness);
  MODEL_FEATURES.forEach((f, j) => {
    const col = Xtrain.map((x) => x[j]);
    console.log(f.padEnd(20), spearman(col, y).toFixed(3), `fired ${col.filter((v) => v > 0).length}`);
  });
  for (const lambda of [1, 10, 100]) {
    const logistic = fit(train, Xtrain, MODEL_FEATURES, lambda);
    const ridge = fitRidge(MODEL_FEATURES, Xtrain, train.map((r) => -r.politeness), lambda);
    console.log(
      `lambda ${lambda}: half-split logistic ${spearman(predict(logistic, Xtest), ytest).toFixed(3)}`,
      `ridge on -score ${spearman(predict(ridge, Xtest), ytest).toFixed(3)}`,
    );
  }
}

if (require.main === module) {
  if (process.argv.includes('--explore')) {
    explore(loadWikipediaPoliteness());
  } else {
    const { weights, heldBackSpearman } = fitDirectness();
    const path = resolve(__dirname, '..', '..', 'shared', 'scoring', 'weights', 'directness.json');
    writeFileSync(path, JSON.stringify(weights, null, 2) + '\n');
    console.log(`wrote ${path}`);
    weights.model.features.forEach((f, j) => console.log(f.padEnd(20), weights.model.weights[j].toFixed(4)));
    console.log(`fold 0 rho ${heldBackSpearman.toFixed(3)}`);
  }
}
