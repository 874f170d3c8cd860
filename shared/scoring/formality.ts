import weights from './weights/formality.json';
import type { Analysis, Span, Token } from './types';
import type { Contribution, DimensionMeasure } from './measure-types';
import { clamp, type LinearModel } from './math';
import { spanOf } from './span';
import { wordFact } from './word';

/** The versioned data behind the formality measure: a ridge model and the informal word list. */
export interface FormalityWeights {
  version: string;
  /** Where the weights came from and how they were fitted. */
  fitted?: Record<string, unknown>;
  /** Single-token informal words (slang, chat abbreviations, apostrophe-less contractions). */
  informal: string[];
  model: LinearModel;
  /**
   * Monotone stretch from the SQUINKY rating scale to the profile scale: raw `zero` maps to 0 and
   * raw `one` to 1. Raters put short, well-formed sentences near 3 of 7, which compresses the
   * formal end; the stretch is set so human replies written to the 28 profile cards land near
   * their targets. It leaves every rank metric unchanged.
   */
  calibration: { zero: number; one: number };
}

/**
 * Every feature the extractor computes, in a fixed order. The model in the JSON picks the subset
 * it uses; the rest are computed so the fit script can try them without touching this file.
 */
export const FORMALITY_FEATURES = [
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
  'properNouns',
  'numbers',
  'commas',
  'questions',
  'shouting',
] as const;

/** One formality feature name. */
export type FormalityFeature = (typeof FORMALITY_FEATURES)[number];

const WEIGHTS = weights as FormalityWeights;

/** Version string of the frozen formality weights, for the scorer's version report. */
export const FORMALITY_VERSION: string = WEIGHTS.version;

// Word classes, looked up once per token as bit flags. Wink tags a capital "I" as PROPN, so
// pronouns come from a closed list, not from the tag alone.
const PRONOUN = 1;
const FIRST_PERSON = 2;
const SECOND_PERSON = 4;
const INFORMAL = 8;
// Apostrophe-less contractions ("dont", "ive", "youre") reach us as a glued second token.
const GLUED_TAIL = 16;
const CONTRACTION_TAIL = 32;
const WORD_FLAGS = new Map<string, number>();
function flag(words: readonly string[], bit: number): void {
  for (const w of words) WORD_FLAGS.set(w, (WORD_FLAGS.get(w) ?? 0) | bit);
}
flag([
  'i', 'me', 'my', 'mine', 'myself', "i'm", 'im', 'we', 'us', 'our', 'ours', 'ourselves',
  'you', 'your', 'yours', 'yourself', 'yourselves', 'u', 'ur', "y'all",
  'he', 'him', 'his', 'himself', 'she', 'her', 'hers', 'herself', 'it', 'its', 'itself',
  'they', 'them', 'their', 'theirs', 'themselves',
], PRONOUN);
flag(['i', 'me', 'my', 'mine', 'myself', "i'm", 'im'], FIRST_PERSON);
flag(['you', 'your', 'yours', 'yourself', 'yourselves', 'u', 'ur', "y'all"], SECOND_PERSON);
flag(WEIGHTS.informal.map((w) => w.toLowerCase()), INFORMAL);
flag(['nt', 've', 're', 'll'], GLUED_TAIL);
flag(["n't", "'m", "'re", "'ve", "'ll", "'d"], CONTRACTION_TAIL);

// Heylighen & Dewaele classes: deictic ones lower the F-score, formal ones raise it.
const DEICTIC = 1;
const FORMAL = 2;
const POS_CLASS = new Map<string, number>([
  ['PRON', DEICTIC], ['VERB', DEICTIC], ['AUX', DEICTIC], ['ADV', DEICTIC], ['INTJ', DEICTIC],
  ['NOUN', FORMAL], ['PROPN', FORMAL], ['ADJ', FORMAL], ['ADP', FORMAL], ['DET', FORMAL],
]);

const CONTRACTED_WORD = /^[a-z]+'(?:m|re|ve|ll|d|t)$/;
// Facts of the norm alone that the contraction and sentence-end tests need (flags beside the word classes).
const CONTRACTED = 64;
const S_CLITIC = 128;
const TRAILER = 256;
const UPPER = /\p{Lu}/u;
const LOWER_START = /^\p{Ll}/u;
const SHOUT = /^\p{Lu}{3,}$/u;
const ELLIPSIS = /^(?:\.{2,}|…+)$/;
// Closing quotes and brackets may follow the full stop; emoji may follow it in chat.
const TRAILERS = new Set(['"', "'", ')', ']', '”', '’', '»']);
const LONG_WORD = 7;
const SENTENCE_CAP = 30;

/** The word classes of a norm and its contraction and trailer facts, as bit flags. */
const wordFlags = wordFact((norm: string): number => {
  let flags = WORD_FLAGS.get(norm) ?? 0;
  const apostrophe = norm.indexOf("'");
  if (flags & CONTRACTION_TAIL || (apostrophe > 0 && CONTRACTED_WORD.test(norm))) flags |= CONTRACTED;
  if (norm === "'s") flags |= S_CLITIC;
  if (TRAILERS.has(norm)) flags |= TRAILER;
  return flags;
});

/** Feature name to its slot in the value array. */
const X = Object.fromEntries(FORMALITY_FEATURES.map((f, i) => [f, i])) as Record<FormalityFeature, number>;

// Slots of the per-group counters.
const C_WORDS = 0;
const C_LETTERS = 1;
const C_UPPER = 2;
const C_FIRST = 3;
const C_SECOND = 4;
const C_CONTRACTIONS = 5;
const C_INFORMAL = 6;
const C_FORMAL = 7;
const C_DEICTIC = 8;
const C_EXCLAMATIONS = 9;
const C_REPEATED = 10;
const C_ELLIPSIS = 11;
const C_EMOJI = 12;
const C_PROPER = 13;
const C_NUMBERS = 14;
const C_COMMAS = 15;
const C_SHOUTING = 16;
const C_SIZE = 17;

/** Span evidence as flat (feature, start, end) triples; null when only values are needed. */
type SpanSink = number[] | null;

function isContraction(t: Token, flags: number): boolean {
  if (flags & CONTRACTED) return true;
  // Possessive 's is tagged PART; the verb ("it's", "let's") is AUX or PRON.
  return (flags & S_CLITIC) !== 0 && t.pos !== 'PART';
}

/**
 * Adds one group's per-sentence feature values to the running sums. A group is a sentence plus
 * any word-less fragments (a trailing emoji, a lone "!!") the splitter cut off around it.
 */
function addGroup(a: Analysis, first: number, last: number, c: number[], sums: number[], sink: SpanSink): void {
  const tokens = a.tokens;
  const w = c[C_WORDS];
  const perWord = w > 0 ? 1 / w : 0;
  let firstWord = -1;
  let lastMeaningful = -1;
  for (let i = first; i < last; i++) {
    const t = tokens[i];
    if (firstWord < 0 && t.kind === 'word') firstWord = i;
    if (t.kind !== 'emoji' && t.kind !== 'emoticon' && !(wordFlags(t.word) & TRAILER)) lastMeaningful = i;
  }
  const lowercaseStart = firstWord >= 0 && LOWER_START.test(tokens[firstWord].text) ? 1 : 0;
  const allLowercase = c[C_LETTERS] > 0 && c[C_UPPER] === 0 ? 1 : 0;
  let terminal = false;
  let question = 0;
  if (lastMeaningful >= 0) {
    const n = tokens[lastMeaningful].norm;
    terminal = n === '.' || n === '!' || n === '?';
    question = n === '?' ? 1 : 0;
  }
  const missingTerminal = terminal || w === 0 ? 0 : 1;

  sums[X.wordsPerSentence] += Math.min(w, SENTENCE_CAP);
  sums[X.wordLength] += c[C_LETTERS] * perWord;
  sums[X.lowercaseStart] += lowercaseStart;
  sums[X.allLowercase] += allLowercase;
  sums[X.missingTerminal] += missingTerminal;
  sums[X.exclamations] += c[C_EXCLAMATIONS];
  sums[X.repeatedPunctuation] += c[C_REPEATED];
  sums[X.ellipsis] += c[C_ELLIPSIS];
  sums[X.firstPerson] += c[C_FIRST] * perWord;
  sums[X.secondPerson] += c[C_SECOND] * perWord;
  sums[X.contractions] += c[C_CONTRACTIONS] * perWord;
  sums[X.informal] += c[C_INFORMAL] * perWord;
  // Heylighen & Dewaele F-score on 0..1: formal classes minus deictic classes, as shares of words.
  sums[X.fScore] += w > 0 ? ((c[C_FORMAL] - c[C_DEICTIC]) * perWord + 1) / 2 : 0.5;
  sums[X.emoji] += c[C_EMOJI];
  sums[X.properNouns] += c[C_PROPER] * perWord;
  sums[X.numbers] += c[C_NUMBERS] * perWord;
  sums[X.commas] += c[C_COMMAS] * perWord;
  sums[X.questions] += question;
  sums[X.shouting] += c[C_SHOUTING] * perWord;

  if (!sink || last <= first) return;
  sink.push(X.wordsPerSentence, tokens[first].start, tokens[last - 1].end);
  if (lowercaseStart) sink.push(X.lowercaseStart, tokens[firstWord].start, tokens[firstWord].end);
  if (allLowercase) sink.push(X.allLowercase, tokens[first].start, tokens[last - 1].end);
  if (missingTerminal && lastMeaningful >= 0) sink.push(X.missingTerminal, tokens[lastMeaningful].start, tokens[lastMeaningful].end);
  if (question) sink.push(X.questions, tokens[lastMeaningful].start, tokens[lastMeaningful].end);
}

/** Counts one token into the group counters (and its evidence into the sink). */
function countToken(tokens: Token[], i: number, sentenceFirst: number, c: number[], sink: SpanSink): void {
  const t = tokens[i];
  const kind = t.kind;
  const norm = t.norm;
  if (kind === 'word') {
    c[C_WORDS]++;
    const length = t.end - t.start;
    c[C_LETTERS] += length;
    if (sink && length >= LONG_WORD) sink.push(X.wordLength, t.start, t.end);
    // norm differs from text only by case, straightened apostrophes and repaired surrogates.
    const cased = t.text !== norm;
    if (cased && c[C_UPPER] === 0 && UPPER.test(t.text)) c[C_UPPER] = 1;
    const flags = wordFlags(t.word);
    if (flags & FIRST_PERSON) { c[C_FIRST]++; if (sink) sink.push(X.firstPerson, t.start, t.end); }
    if (flags & SECOND_PERSON) { c[C_SECOND]++; if (sink) sink.push(X.secondPerson, t.start, t.end); }
    if (isContraction(t, flags)) { c[C_CONTRACTIONS]++; if (sink) sink.push(X.contractions, t.start, t.end); }
    if (flags & INFORMAL) {
      c[C_INFORMAL]++;
      if (sink) sink.push(X.informal, t.start, t.end);
      if (cased && SHOUT.test(t.text)) { c[C_SHOUTING]++; if (sink) sink.push(X.shouting, t.start, t.end); }
    } else if (flags & GLUED_TAIL && i > 0 && tokens[i - 1].end === t.start && tokens[i - 1].kind === 'word') {
      c[C_INFORMAL]++;
      if (sink) sink.push(X.informal, tokens[i - 1].start, t.end);
    }
    const pos = t.pos;
    const cls = flags & PRONOUN ? DEICTIC : POS_CLASS.get(pos) ?? 0;
    if (cls === DEICTIC) {
      c[C_DEICTIC]++;
      if (sink) sink.push(X.fScore, t.start, t.end);
    } else if (cls === FORMAL) {
      c[C_FORMAL]++;
      if (pos === 'PROPN' && i !== sentenceFirst) { c[C_PROPER]++; if (sink) sink.push(X.properNouns, t.start, t.end); }
    }
    return;
  }
  if (kind === 'punctuation') {
    if (norm === ',') {
      c[C_COMMAS]++;
      if (sink) sink.push(X.commas, t.start, t.end);
    } else if (norm === '!' || norm === '?') {
      if (norm === '!') { c[C_EXCLAMATIONS]++; if (sink) sink.push(X.exclamations, t.start, t.end); }
      // Count a run of "!!" or "?!" once, at its second mark.
      const prev = i > 0 ? tokens[i - 1] : null;
      if (prev !== null && prev.end === t.start && (prev.norm === '!' || prev.norm === '?')) {
        const before = i > 1 ? tokens[i - 2] : null;
        const runStarted = before !== null && before.end === prev.start && (before.norm === '!' || before.norm === '?');
        if (!runStarted) { c[C_REPEATED]++; if (sink) sink.push(X.repeatedPunctuation, prev.start, t.end); }
      }
    } else if (ELLIPSIS.test(norm)) {
      c[C_ELLIPSIS]++;
      if (sink) sink.push(X.ellipsis, t.start, t.end);
    }
    return;
  }
  if (kind === 'number') {
    c[C_NUMBERS]++;
    if (sink) sink.push(X.numbers, t.start, t.end);
  } else if (kind === 'emoji' || kind === 'emoticon') {
    c[C_EMOJI]++;
    if (sink) sink.push(X.emoji, t.start, t.end);
  }
}

/**
 * Computes every formality feature, averaged over sentences, optionally recording where each fired.
 * @param a - the analysis
 * @param sink - receives (feature, start, end) triples, or null when only values are needed
 * @returns feature values in {@link FORMALITY_FEATURES} order
 */
function extract(a: Analysis, sink: SpanSink): number[] {
  // Not Float64Arrays: typed arrays over 64 bytes live outside the heap and are slow to allocate.
  const sums: number[] = new Array<number>(FORMALITY_FEATURES.length).fill(0);
  const counts: number[] = new Array<number>(C_SIZE).fill(0);
  let groups = 0;
  let groupFirst = -1;
  let groupLast = -1;
  for (const s of a.sentences) {
    if (groupFirst >= 0 && s.words > 0 && counts[C_WORDS] > 0) {
      addGroup(a, groupFirst, groupLast, counts, sums, sink);
      groups++;
      counts.fill(0);
      groupFirst = -1;
    }
    if (groupFirst < 0) groupFirst = s.first;
    groupLast = s.last;
    for (let i = s.first; i < s.last; i++) countToken(a.tokens, i, s.first, counts, sink);
  }
  if (groupFirst >= 0) {
    addGroup(a, groupFirst, groupLast, counts, sums, sink);
    groups++;
  }
  if (groups > 0) for (let j = 0; j < sums.length; j++) sums[j] /= groups;
  return sums;
}

/**
 * The formality features of a text, averaged per sentence; the fit script and the runtime share it.
 * @param a - the analysis
 * @returns feature values by name (all zeros for an empty text)
 */
export function formalityFeatures(a: Analysis): Record<FormalityFeature, number> {
  return toRecord(extract(a, null));
}

function toRecord(values: readonly number[]): Record<FormalityFeature, number> {
  const out = {} as Record<FormalityFeature, number>;
  for (let j = 0; j < FORMALITY_FEATURES.length; j++) out[FORMALITY_FEATURES[j]] = values[j];
  return out;
}

/** Value slot of each model feature, in model order (resolved once: the model is frozen data). */
const MODEL_SLOTS: readonly number[] = WEIGHTS.model.features.map((f) => {
  const slot = X[f as FormalityFeature];
  if (slot === undefined) throw new Error(`formality weights name an unknown feature: ${f}`);
  return slot;
});

/** The spans of one feature from the flat evidence triples. */
function spansOf(text: string, sink: number[], feature: number): Span[] {
  const spans: Span[] = [];
  for (let k = 0; k < sink.length; k += 3) if (sink[k] === feature) spans.push(spanOf(text, sink[k + 1], sink[k + 2]));
  return spans;
}

/**
 * Measures formality: a ridge model over cheap per-sentence features, stretched to the profile
 * scale and clamped to 0..1. Each delta is relative to the average training
 * sentence, so the stretched intercept plus the deltas is the unclamped value; each weight is the
 * effect per unit of the raw feature.
 * @param a - the analysis of the reply
 * @param evidence - false when only the value is needed: contributions come back empty, which
 *   spares the span bookkeeping (the value is computed identically either way)
 * @returns the value (1 = formal) and the contributions that explain it
 */
export function measureFormality(a: Analysis, evidence = true): DimensionMeasure {
  const model = WEIGHTS.model;
  const { zero, one } = WEIGHTS.calibration;
  const stretch = 1 / (one - zero);
  // No tokens, no evidence: report the average training sentence rather than an extreme.
  if (a.tokens.length === 0) return { value: clamp((model.intercept - zero) * stretch), contributions: [] };
  const sink: SpanSink = evidence ? [] : null;
  const x = extract(a, sink);
  // Same arithmetic as linearPredict, by slot instead of by name.
  let value = (model.intercept - zero) * stretch;
  const contributions: Contribution[] = [];
  for (let i = 0; i < MODEL_SLOTS.length; i++) {
    const slot = MODEL_SLOTS[i];
    const scale = model.scale[i] || 1;
    const delta = (stretch * model.weights[i] * (x[slot] - model.mean[i])) / scale;
    value += delta;
    if (!sink) continue;
    contributions.push({
      feature: FORMALITY_FEATURES[slot],
      value: x[slot],
      weight: (stretch * model.weights[i]) / scale,
      delta,
      spans: spansOf(a.text, sink, slot),
    });
  }
  contributions.sort(byImpact);
  return { value: clamp(value), contributions };
}

/** Orders contributions by |delta| descending, then feature name, so output is stable. */
function byImpact(x: Contribution, y: Contribution): number {
  const d = Math.abs(y.delta) - Math.abs(x.delta);
  if (d !== 0) return d;
  return x.feature < y.feature ? -1 : x.feature > y.feature ? 1 : 0;
}
