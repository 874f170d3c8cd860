import { analyze } from '../../shared/scoring/analyze';
import { measureTextHumanLikeness } from '../../shared/scoring/human-likeness';
import { detectSignals } from '../../shared/scoring/signals';
import { fastdetectPairs, foldOf, truthfulqaPairs, type TextPair } from '../lib/dev-data';
import { auroc } from '../lib/stats';
import { atLeast, info, type EvalRow } from './eval-row';

const METRIC = 'AUROC human_likeness';

interface Scored {
  id: string;
  domain: string;
  generator: string;
  human: boolean;
  words: number;
  score: number;
}

/** Scores one text the way the engine does: profile-free signals, then the text model. */
function scoreText(text: string): { score: number; words: number } {
  const a = analyze(text);
  return { score: measureTextHumanLikeness(a, detectSignals(a)).value, words: a.words };
}

function scorePairs(pairs: readonly TextPair[]): Scored[] {
  const out: Scored[] = [];
  for (const p of pairs) {
    const id = `${p.id}:${p.domain}`;
    for (const human of [true, false]) {
      const s = scoreText(human ? p.human : p.ai);
      out.push({ id, domain: p.domain, generator: p.generator, human, words: s.words, score: s.score });
    }
  }
  return out;
}

function aurocOf(xs: readonly Scored[]): number {
  return auroc(
    xs.map((x) => x.score),
    xs.map((x) => x.human),
  );
}

function shareAtLeastHalf(xs: readonly Scored[], human: boolean): { n: number; value: number } {
  const side = xs.filter((x) => x.human === human);
  return { n: side.length, value: side.filter((x) => x.score >= 0.5).length / Math.max(1, side.length) };
}

const BINS: [string, number, number][] = [
  ['<=10 words', 0, 10],
  ['11-30 words', 11, 30],
  ['31-80 words', 31, 80],
  ['>80 words', 81, Infinity],
];

/**
 * Development figures for `human_likeness`: AUROC (human = positive) on fastdetect-gpt34
 * writing + xsum and on mgtbench-truthfulqa, with per-generator, per-domain, held-out-fold,
 * length-bin and length-matched views. The model was fitted on folds 1-4, so only the fold-0
 * rows are out of sample.
 * @returns the eval rows
 */
export async function evaluate(): Promise<EvalRow[]> {
  const rows: EvalRow[] = [];

  const fast = scorePairs([...fastdetectPairs('writing'), ...fastdetectPairs('xsum')]);
  rows.push(atLeast(METRIC, 'fastdetect-gpt34 writing+xsum', fast.length, aurocOf(fast), 0.85));
  const fastHeld = fast.filter((x) => foldOf(x.id) === 0);
  rows.push(info(METRIC, 'fastdetect-gpt34 writing+xsum fold 0 (held out)', fastHeld.length, aurocOf(fastHeld)));
  for (const domain of ['writing', 'xsum']) {
    const xs = fast.filter((x) => x.domain === domain);
    rows.push(info(METRIC, `fastdetect-gpt34 ${domain}`, xs.length, aurocOf(xs)));
  }
  for (const generator of ['gpt-3.5-turbo', 'gpt-4']) {
    const xs = fast.filter((x) => x.generator === generator);
    rows.push(info(METRIC, `fastdetect-gpt34 writing+xsum ${generator}`, xs.length, aurocOf(xs)));
  }

  const tqaPairs = truthfulqaPairs();
  const tqa = scorePairs(tqaPairs);
  rows.push(atLeast(METRIC, 'mgtbench-truthfulqa', tqa.length, aurocOf(tqa), 0.9));
  const tqaHeld = tqa.filter((x) => foldOf(x.id) === 0);
  rows.push(info(METRIC, 'mgtbench-truthfulqa fold 0 (held out)', tqaHeld.length, aurocOf(tqaHeld)));
  for (const [label, lo, hi] of BINS) {
    const xs = tqa.filter((x) => x.words >= lo && x.words <= hi);
    const nHuman = xs.filter((x) => x.human).length;
    const nAi = xs.length - nHuman;
    const dataset = `mgtbench-truthfulqa ${label} (human ${nHuman}, ai ${nAi})`;
    // A bin with only one class has no AUROC; its count is reported so the confound stays visible.
    if (nHuman && nAi) rows.push(info(METRIC, dataset, xs.length, aurocOf(xs)));
    else rows.push(info('texts in bin (one class: no AUROC)', dataset, xs.length, xs.length));
  }
  // Length-matched: the AI answer cut to the human answer's word count, so length cannot help.
  const matched: Scored[] = [];
  for (const p of tqaPairs) {
    const id = `${p.id}:${p.domain}`;
    const humanWords = p.human.trim().split(/\s+/);
    const cut = p.ai.trim().split(/\s+/).slice(0, humanWords.length).join(' ');
    const h = scoreText(p.human);
    const a = scoreText(cut);
    matched.push({ id, domain: p.domain, generator: p.generator, human: true, words: h.words, score: h.score });
    matched.push({ id, domain: p.domain, generator: p.generator, human: false, words: a.words, score: a.score });
  }
  rows.push(info(METRIC, 'mgtbench-truthfulqa AI cut to human length', matched.length, aurocOf(matched)));

  // Calibration at 0.5: the share of each side the model calls human.
  for (const [name, xs] of [
    ['fastdetect-gpt34 writing+xsum', fast],
    ['mgtbench-truthfulqa', tqa],
  ] as const) {
    const h = shareAtLeastHalf(xs, true);
    const a = shareAtLeastHalf(xs, false);
    rows.push(info('share >= 0.5 human_likeness (human)', name, h.n, h.value));
    rows.push(info('share >= 0.5 human_likeness (AI)', name, a.n, a.value));
  }
  return rows;
}
