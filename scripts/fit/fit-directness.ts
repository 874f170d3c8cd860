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
const VERSION = 'directness-1.4.0';

/**
 * The politeness strategies of Danescu-Niculescu-Mizil et al. 2013 the model reads, each with the
 * side the paper and Brown & Levinson put it on: -1 redress (more polite, less direct), +1 bald (more
 * direct). Hedging is hand-set (see DirectnessWeights.mitigation); answerFirst and preamble need an
 * incoming message. Left out on purpose: the short positive/negative word lists (on Wikipedia they
 * were "bias", "ignore", "personal attack": the community's words, not the strategy), emphasis,
 * negation, question and exclamation counts, which stand for Wikipedia's topics and habits more
 * than for a strategy.
 */
export const STRATEGY_SIDES: Partial<Record<DirectnessFeature, -1 | 1>> = {
  gratitude: -1,
  deference: -1,
  greeting: -1,
  apology: -1,
  please: -1,
  counterfactual: -1,
  indicative: -1,
  indirect: -1,
  wondering: -1,
  mitigator: -1,
  firstPersonPlural: -1,
  firstPersonStart: -1,
  pleaseStart: 1,
  factuality: 1,
  whStart: 1,
  why: 1,
  directStart: 1,
  secondPersonStart: 1,
  imperative: 1,
};
const STRATEGIES = DIRECTNESS_FEATURES.filter((f) => STRATEGY_SIDES[f] !== undefined);
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

/**
 * Logistic fit with each strategy held to its side: a strategy whose weight comes out on the wrong
 * side is dropped (weight 0) and the rest refitted, until every weight agrees with the theory.
 */
function fit(train: PolitenessRow[], X: number[][], features: readonly DirectnessFeature[], lambda: number): LinearModel {
  let kept = features.map((_, j) => j);
  const y = lessPoliteHalf(train);
  for (;;) {
    const model = fitLogistic(kept.map((j) => features[j]), X.map((x) => kept.map((j) => x[j])), y, lambda, 50);
    const wrong = kept.filter((j, k) => model.weights[k] * (STRATEGY_SIDES[features[j]] ?? 0) < 0);
    if (wrong.length === 0) {
      // Dropped strategies stay in the file with weight 0, so the runtime names every strategy.
      const full: LinearModel = { features: [...features], mean: features.map(() => 0), scale: features.map(() => 1), weights: features.map(() => 0), intercept: model.intercept };
      kept.forEach((j, k) => {
        full.mean[j] = model.mean[k];
        full.scale[j] = model.scale[k];
        full.weights[j] = model.weights[k];
      });
      return full;
    }
    kept = kept.filter((j) => !wrong.includes(j));
  }
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
  const model = fit(train, matrix(train, STRATEGIES), STRATEGIES, LAMBDA);
  const weights: DirectnessWeights = {
    version: VERSION,
    fitted: {
      data: 'stanford-politeness/wikipedia.annotated.csv, folds 1-4 of foldOf(Id)',
      target: '1 when Normalized Score is below the training median (less polite half), else 0',
      method: `L2 logistic regression (IRLS), lambda ${LAMBDA}, standardized features, only the politeness strategies of Danescu-Niculescu-Mizil et al. 2013, each held to its theoretical side (wrong-signed ones dropped and the rest refitted)`,
      n: train.length,
      incoming: 'answerFirst and preamble are hand-set log-odds (no incoming message in the corpus)',
      mitigation: 'hedging is hand-set log-odds per unit of hesitation (requests rarely hedge)',
      baseline: 'hand-set value of a reply with no feature fired; replaces the fitted intercept at run time',
    },
    // The strategy lexicon without the community word lists the model no longer reads.
    lexicon: (current as DirectnessWeights).lexicon.filter((e) => STRATEGY_SIDES[e.category as DirectnessFeature] !== undefined),
    model,
    incoming: (current as DirectnessWeights).incoming,
    mitigation: (current as DirectnessWeights).mitigation,
    baseline: (current as DirectnessWeights).baseline,
  };
  const heldBackSpearman = spearman(predict(model, matrix(test, STRATEGIES)), test.map((r) => r.politeness));
  return { weights, heldBackSpearman };
}

/**
 * Fits the strategy model on some rows and returns a scorer for others: the eval's topic-split check.
 * @param train - rated requests to fit on
 * @returns log-odds of "less polite" for any request text
 */
export function fitStrategiesOn(train: PolitenessRow[]): (text: string) => number {
  const model = fit(train, matrix(train, STRATEGIES), STRATEGIES, LAMBDA);
  return (text) => predict(model, matrix([{ id: '', text, politeness: 0 }], STRATEGIES))[0];
}

function explore(rows: PolitenessRow[]): void {
  const train = rows.filter((r) => foldOf(r.id) !== 0);
  const test = rows.filter((r) => foldOf(r.id) === 0);
  const Xtrain = matrix(train, STRATEGIES);
  const Xtest = matrix(test, STRATEGIES);
  const ytest = test.map((r) => r.politeness);
  const y = train.map((r) => r.politeness);
  STRATEGIES.forEach((f, j) => {
    const col = Xtrain.map((x) => x[j]);
    console.log(f.padEnd(20), spearman(col, y).toFixed(3), `fired ${col.filter((v) => v > 0).length}`);
  });
  for (const lambda of [1, 10, 100]) {
    const logistic = fit(train, Xtrain, STRATEGIES, lambda);
    const ridge = fitRidge([...STRATEGIES], Xtrain, train.map((r) => -r.politeness), lambda);
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
