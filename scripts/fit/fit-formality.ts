import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { analyze } from '../../shared/scoring/analyze';
import { FORMALITY_FEATURES, formalityFeatures, type FormalityFeature, type FormalityWeights } from '../../shared/scoring/formality';
import current from '../../shared/scoring/weights/formality.json';
import { foldOf, readCsv } from '../lib/dev-data';
import { fitRidge } from '../lib/fit';
import { spearman } from '../lib/stats';
import { linearPredict } from '../../shared/scoring/math';

/** Bump on every refit that changes the frozen weights. */
const VERSION = 'formality-1.0.0';

/**
 * The features the model uses. The extractor computes a few more: commas, questions and shouting
 * added nothing on the held-back fold, and proper nouns and numbers (+0.015 rho together) would
 * tie formality to genre (news names and figures) rather than to register.
 */
const MODEL_FEATURES: FormalityFeature[] = [
  'wordsPerSentence',
  'wordLength',
  'lowercaseStart',
  'allLowercase',
  'missingTerminal',
  'exclamations',
  'repeatedPunctuation',
  'ellipsis',
  'firstPerson',
  'secondPerson',
  'contractions',
  'informal',
  'fScore',
  'emoji',
];
const LAMBDA = 10;

/** One squinky sentence reduced to what the fit needs. */
export interface FormalityRow {
  id: string;
  text: string;
  /** Mean rating rescaled from 1..7 to 0..1. */
  y: number;
}

/**
 * Loads the SQUINKY! development sentences with their formality rescaled to 0..1.
 * @returns rows in file order
 */
export function loadSquinky(): FormalityRow[] {
  return readCsv('squinky-formality', 'squinky_formality.csv').map((r) => ({
    id: r['Sentence ID'],
    text: r['Actual sentence'],
    y: (Number(r['Formality']) - 1) / 6,
  }));
}

function matrix(rows: FormalityRow[], features: readonly FormalityFeature[]): number[][] {
  return rows.map((r) => {
    const f = formalityFeatures(analyze(r.text));
    return features.map((name) => f[name]);
  });
}

function heldBackRho(train: FormalityRow[], test: FormalityRow[], features: FormalityFeature[], lambda: number): number {
  const model = fitRidge(features, matrix(train, features), train.map((r) => r.y), lambda);
  const pred = matrix(test, features).map((x) => linearPredict(model, Object.fromEntries(features.map((f, j) => [f, x[j]]))).value);
  return spearman(pred, test.map((r) => r.y));
}

/**
 * Fits the formality ridge on folds 1-4 of SQUINKY! and returns the weights file it would write.
 * @param rows - the development sentences (defaults to the whole SQUINKY! file)
 * @returns the new weights (the informal word list is carried over unchanged) and the fold-0 rho
 */
export function fitFormality(rows: FormalityRow[] = loadSquinky()): { weights: FormalityWeights; heldBackSpearman: number } {
  const train = rows.filter((r) => foldOf(r.id) !== 0);
  const test = rows.filter((r) => foldOf(r.id) === 0);
  const model = fitRidge(MODEL_FEATURES, matrix(train, MODEL_FEATURES), train.map((r) => r.y), LAMBDA);
  const weights: FormalityWeights = {
    version: VERSION,
    fitted: {
      data: 'squinky-formality/squinky_formality.csv, folds 1-4 of foldOf(Sentence ID)',
      target: '(Formality - 1) / 6',
      method: `ridge, lambda ${LAMBDA}, standardized features`,
      n: train.length,
    },
    informal: (current as FormalityWeights).informal,
    calibration: (current as FormalityWeights).calibration,
    model,
  };
  return { weights, heldBackSpearman: heldBackRho(train, test, MODEL_FEATURES, LAMBDA) };
}

function explore(rows: FormalityRow[]): void {
  const train = rows.filter((r) => foldOf(r.id) !== 0);
  const test = rows.filter((r) => foldOf(r.id) === 0);
  const all = matrix(train, FORMALITY_FEATURES);
  const y = train.map((r) => r.y);
  FORMALITY_FEATURES.forEach((f, j) => console.log(f.padEnd(22), spearman(all.map((x) => x[j]), y).toFixed(3)));
  for (const lambda of [1, 10, 100]) {
    console.log(`lambda ${lambda}: fold0 rho ${heldBackRho(train, test, MODEL_FEATURES, lambda).toFixed(3)}, all features ${heldBackRho(train, test, [...FORMALITY_FEATURES], lambda).toFixed(3)}`);
  }
  for (const drop of MODEL_FEATURES) {
    const without = MODEL_FEATURES.filter((f) => f !== drop);
    console.log(`without ${drop.padEnd(20)} ${heldBackRho(train, test, without, LAMBDA).toFixed(3)}`);
  }
}

if (require.main === module) {
  if (process.argv.includes('--explore')) {
    explore(loadSquinky());
  } else {
    const { weights, heldBackSpearman } = fitFormality();
    const path = resolve(__dirname, '..', '..', 'shared', 'scoring', 'weights', 'formality.json');
    writeFileSync(path, JSON.stringify(weights, null, 2) + '\n');
    console.log(`wrote ${path}`);
    weights.model.features.forEach((f, j) => console.log(f.padEnd(22), weights.model.weights[j].toFixed(4)));
    console.log(`fold 0 rho ${heldBackSpearman.toFixed(3)}`);
  }
}
