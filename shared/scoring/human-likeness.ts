import { inLexicon } from './analyze';
import type { Contribution, DimensionMeasure, SignalHit } from './measure-types';
import { clamp, linearPredict, sigmoid, type LinearModel } from './math';
import { coefficientOfVariation, countContractions, findExcessVocab, lowerOf } from './signals';
import { spanOf } from './span';
import type { Analysis, Span } from './types';
import { wordFact } from './word';
import weights from './weights/human-likeness.json';

/** The stored model: a standardized logistic model, its version, and the human-typical prior of each feature. */
export interface HumanLikenessModel extends LinearModel {
  version: string;
  /** Value each feature is shrunk toward when the text is too short to measure it (human-typical). */
  priors: Record<string, number>;
  /** How far the fit raised the intercept so a no-evidence text reads as human (see the fit script). */
  interceptShift?: number;
  /**
   * Weight of each word of {@link FUNCTION_WORDS} (same order) in the function-word profile: the
   * profile feature is the sum of the weights of the function words of a text per 100 words.
   */
  functionWordWeights?: number[];
}

/**
 * About a hundred of the most frequent English function words (articles, pronouns, auxiliaries,
 * prepositions, conjunctions, common adverbs). How often a writer uses each is a habit of syntax,
 * not of topic (the classic stylometric profile, Mosteller & Wallace; Stamatatos 2009), so its
 * distribution separates human from model prose at equal length and across genres.
 */
export const FUNCTION_WORDS: readonly string[] = (
  'the of and to a in is that it for was on with as be by at this are from or have an but not they ' +
  'which one you were his her all there we their has been if would more when will can who so no she ' +
  'he my what up out do about them some could than other into then these its also only may our any ' +
  'how very just those such both each most much even many because while where should might must ' +
  'through however although though yet still often too here now well me your us him i did does had ' +
  'being over after before between without within'
).split(' ');
const FUNCTION_WORD_INDEX = new Map(FUNCTION_WORDS.map((w, i) => [w, i]));

const MODEL = weights as HumanLikenessModel;

/**
 * Words at which a rate feature is trusted fully. Below it the feature is pulled toward its
 * human-typical prior, so a short reply is never pushed toward "machine" for lack of evidence
 * (the fairness rule: brevity and plain wording are not AI evidence).
 */
export const FULL_EVIDENCE_WORDS = 40;

/** Upper bound on the probability when a canned AI disclaimer is present (definitional evidence). */
const MAX_WITH_SELF_DISCLOSURE = 0.02;

/** Signals that are canned assistant text; profile-dependent signals never enter the model. */
const TELL_SIGNALS = new Set(['ai-self-disclosure', 'assistant-boilerplate', 'generic-caveat']);
/** The tells that are stock wording (not formatting): they bound the value (see cannedCap). */
const CANNED_SIGNALS = new Set(['ai-self-disclosure', 'assistant-boilerplate', 'generic-caveat']);

/**
 * Essay transitions that learners of English are taught ("In conclusion, ..."). The signposting
 * signal still reports them, but the model does not count them as evidence of a machine.
 */
const TAUGHT_TRANSITIONS = /^(?:in conclusion|in summary|to sum up|to summarize|all in all|furthermore|moreover|in addition)$/;

// Reinhart et al. 2025 (PNAS): instruction-tuned models use nominalizations at about twice and
// present participial clauses at several times the human rate, even when asked to be informal.
const NOMINAL_SUFFIX = /(?:tion|tions|ment|ments|ness|ity|ities|ance|ances|ence|ences)$/;

// "As the sun dipped below the horizon, ...": a fronted adverbial clause. Dev check: a sentence
// opening with "As the/a/he/she/..." occurs in 24/600 human vs 149/600 AI fastdetect texts.
const CLAUSE_OPENERS = new Set(['as', 'with', 'amidst', 'amid', 'despite']);

const FIRST_PERSON = new Set(['i', 'me', 'my', 'mine', 'myself', "i'm", "i've", "i'll", "i'd", 'we', 'us', 'our', 'ours']);

// Chat and informal marks only people produce in passing. "!" is left out: assistant boilerplate
// ("Certainly!", "I hope this helps!") is full of it.
const CASUAL_WORDS = new Set(
  'lol lmao haha hahaha omg btw idk tbh imo gonna wanna gotta kinda sorta yeah yep yup nope ok okay hey thx pls plz u ur cuz dunno'.split(' '),
);
const QUOTE_CHARS = /["\u201c\u201d]/g;

// Words instruction-tuned models over-use in ordinary answers, beyond the showy style words of the
// excess-vocab signal: connectives, generalizers and service verbs (Kobak et al. 2025 excess words
// of everyday register; Reinhart et al. 2025; Juzek & Ward 2025). Weak on one text, so it enters
// the fit as one rate among many, never as a signal.
const MACHINE_WORDS = new Set(
  // Register words shared with academic prose (significant, approach, potential, various...) are left
  // out: with them, human arXiv abstracts were flagged at 12% in the leave-one-genre-out eval.
  'additionally overall ultimately typically generally commonly particularly crucial essential ensure enhance utilize assist appropriate individuals experiences'.split(' '),
);

// A sentence opened with a conjunction or a discourse particle ("And", "But", "So", "Oh", "Well"):
// the spoken rhythm school essays drop and models rarely produce.
const CONVERSATIONAL_OPENERS = new Set('and but so or because well oh yeah yes no ok okay anyway plus also though'.split(' '));

// A spaced hyphen or double hyphen typed as a dash. Dev check: 111/600 human vs 42/600 AI
// fastdetect texts (BBC house style makes xsum 77/5); the em dash is the model's form.
const PLAIN_DASH = / - | -- |--/g;

// What the token scan needs to know about a word, from its norm alone.
const NOMINAL = 1;
const FIRST = 2;
const CASUAL = 4;
const ING = 8;
const CLAUSE_OPENER = 16;
const MACHINE = 32;
const CONVERSATIONAL = 64;
const UNLISTED = 128;
const LETTERS_ONLY = /^[a-z]+$/;
const functionWordOf = wordFact((n: string): number => FUNCTION_WORD_INDEX.get(n) ?? -1);
const wordClass = wordFact(
  (n: string): number =>
    (n.length > 6 && NOMINAL_SUFFIX.test(n) && !n.includes("'") ? NOMINAL : 0) |
    (FIRST_PERSON.has(n) ? FIRST : 0) |
    (CASUAL_WORDS.has(n) ? CASUAL : 0) |
    (n.length > 5 && n.endsWith('ing') ? ING : 0) |
    (CLAUSE_OPENERS.has(n) ? CLAUSE_OPENER : 0) |
    (MACHINE_WORDS.has(n) ? MACHINE : 0) |
    (CONVERSATIONAL_OPENERS.has(n) ? CONVERSATIONAL : 0) |
    (LETTERS_ONLY.test(n) && !inLexicon(n) ? UNLISTED : 0),
);

/** The fitted features, as produced by {@link humanLikenessFeatures}. */
export type HumanLikenessFeatures = Record<string, number>;

/** Raw feature values, the confidence (0..1) each deserves, and the spans that explain them. */
export interface RawHumanLikenessFeatures {
  raw: Record<string, number>;
  /** Occurrences of each word of {@link FUNCTION_WORDS}, for refitting the profile (see the fit script). */
  functionWordCounts: Float64Array;
  /** Word count the rates were taken over. */
  words: number;
  confidence: Record<string, number>;
  spans: Record<string, Span[]>;
}

function per100(count: number, words: number, cap: number): number {
  return Math.log1p(Math.min(cap, (count * 100) / Math.max(1, words)));
}

/** A count and, when evidence is wanted, the spans behind it (the count never depends on them). */
class Tally {
  count = 0;
  readonly spans: Span[] = [];

  constructor(
    private readonly text: string,
    private readonly evidence: boolean,
  ) {}

  add(start: number, end: number): void {
    this.count++;
    if (this.evidence) this.spans.push(spanOf(this.text, start, end));
  }

  addMatches(re: RegExp): void {
    re.lastIndex = 0;
    for (let m = re.exec(this.text); m; m = re.exec(this.text)) this.add(m.index, m.index + m[0].length);
  }
}

/**
 * Measures the stylometric quantities of a text before shrinkage. Used by the fit (to learn the
 * priors) and, through {@link humanLikenessFeatures}, at run time.
 * @param a - the analysis
 * @param signals - the machine-like signals detected on the same text
 * @param evidence - false to skip the spans (raw values and confidences are computed identically)
 * @param fwWeights - weights of the function-word profile (defaults to the stored model's)
 * @returns raw values, confidences and spans (an empty record without evidence)
 */
export function rawHumanLikenessFeatures(
  a: Analysis,
  signals: readonly SignalHit[],
  evidence = true,
  fwWeights: readonly number[] | undefined = MODEL.functionWordWeights,
): RawHumanLikenessFeatures {
  const text = a.text;
  const lower = lowerOf(a);
  const words = a.words;

  const nominal = new Tally(text, evidence);
  const participles = new Tally(text, evidence);
  const firstPerson = new Tally(text, evidence);
  const casual = new Tally(text, evidence);
  const digits = new Tally(text, evidence);
  const machine = new Tally(text, evidence);
  const unlisted = new Tally(text, evidence);
  const tokens = a.tokens;
  const functionWordCounts = new Float64Array(FUNCTION_WORDS.length);
  let commas = 0;
  let semicolons = 0;
  let colons = 0;
  let parentheses = 0;
  let exclamations = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'word') {
      const fw = functionWordOf(t.word);
      if (fw >= 0) functionWordCounts[fw]++;
      const c = wordClass(t.word);
      if (c & NOMINAL) nominal.add(t.start, t.end);
      if (c & FIRST) firstPerson.add(t.start, t.end);
      if (c & MACHINE) machine.add(t.start, t.end);
      if (c & UNLISTED) unlisted.add(t.start, t.end);
      if (c & CASUAL || t.text === 'i') casual.add(t.start, t.end);
      if (i > 0 && tokens[i - 1].text === ',' && c & ING && t.pos === 'VERB') participles.add(t.start, t.end);
    } else if (t.kind === 'number') digits.add(t.start, t.end);
    else if (t.text === ',') commas++;
    else if (t.text === ';') semicolons++;
    else if (t.text === ':') colons++;
    else if (t.text === '(') parentheses++;
    else if (t.text === '!') exclamations++;
    else if (t.text === '?' || t.text === '...' || t.text === '\u2026' || t.kind === 'emoji' || t.kind === 'emoticon') {
      casual.add(t.start, t.end);
    }
  }
  const clauseOpeners = new Tally(text, evidence);
  const conversational = new Tally(text, evidence);
  const fragments = new Tally(text, evidence);
  const lengths: number[] = [];
  let longest = 0;
  let longestSpan: { start: number; end: number } | undefined;
  let sentenceWords = 0;
  for (const s of a.sentences) {
    if (s.words === 0) continue;
    lengths.push(s.words);
    if (s.words > longest) {
      longest = s.words;
      longestSpan = s;
    }
    sentenceWords += s.words;
    const c = text.charCodeAt(s.start);
    // A sentence typed without its capital is a casual mark.
    if (c >= 97 && c <= 122) casual.add(s.start, tokens[s.first].end);
    const first = tokens[s.first];
    if (wordClass(first.word) & CONVERSATIONAL) conversational.add(first.start, first.end);
    // Sentences of one to four words ("Nope.", "Fair enough.", "Not really, no."): fragments.
    if (s.words <= 4) fragments.add(s.start, s.end);
    if (wordClass(first.word) & CLAUSE_OPENER) {
      for (let k = s.first + 2; k < s.last; k++) {
        if (tokens[k].text === ',') {
          clauseOpeners.add(first.start, tokens[k].start);
          break;
        }
      }
    }
  }
  casual.spans.sort((x, y) => x.start - y.start);
  const quotes = new Tally(text, evidence);
  quotes.addMatches(QUOTE_CHARS);
  const plainDashes = new Tally(text, evidence);
  plainDashes.addMatches(PLAIN_DASH);

  const contractions = countContractions(a);
  const opportunities = contractions.contracted.length + contractions.expanded.length;
  const vocab = findExcessVocab(a);
  let vocabWeight = 0;
  for (const h of vocab) vocabWeight += h.tier === 1 ? 1 : 0.5;

  let keep = 1;
  let keepCanned = 1;
  const tells: Span[] = [];
  const signposts: Span[] = [];
  for (const s of signals) {
    if (TELL_SIGNALS.has(s.id)) {
      keep *= 1 - s.severity * Math.min(1, s.count / s.saturation);
      if (CANNED_SIGNALS.has(s.id)) keepCanned *= 1 - s.severity * Math.min(1, s.count / s.saturation);
      if (evidence) tells.push(...s.spans);
    } else if (s.id === 'signposting') {
      for (const sp of s.spans) if (!TAUGHT_TRANSITIONS.test(lower.slice(sp.start, sp.end))) signposts.push(sp);
    }
  }
  tells.sort((x, y) => x.start - y.start);

  const raw: Record<string, number> = {
    // Combined penalty of the canned-text signals: 1 - prod(1 - p_i).
    tells: 1 - keep,
    // The canned-phrase part of it alone (no markdown: Reddit writers format too); caps the value.
    canned: 1 - keepCanned,
    signposts: Math.min(3, signposts.length),
    // Hits per 100 words, never over fewer than 100 words: one "vibrant" in an 8-word answer is
    // one word of evidence, not a density of 12 per 100. The log gives later hits less weight.
    excessVocab: Math.log1p(Math.min(6, (vocabWeight * 100) / Math.max(words, 100))),
    contractionShare: opportunities ? contractions.contracted.length / opportunities : 0,
    sentenceCV: Math.min(1.2, coefficientOfVariation(lengths)),
    // Burstiness as the longest sentence over the mean: people let one sentence run on among short
    // ones, models keep every sentence near their mean. Unlike the CV, a few fragments do not
    // dominate it. Leave-one-genre-out it lifts pairs cut to the same length (see the fit script).
    longestSentence: lengths.length ? Math.min(3, (longest * lengths.length) / sentenceWords) : 1,
    // Sparse counts enter as log(1 + rate per 100 words), capped near the human 99th percentile
    // of the dev data, so one marker counts most and no single habit can swamp the rest.
    nominalizations: per100(nominal.count, words, 12),
    participles: per100(participles.count, words, 4),
    clauseOpeners: lengths.length ? Math.min(0.4, clauseOpeners.count / lengths.length) : 0,
    firstPerson: per100(firstPerson.count, words, 15),
    casual: per100(casual.count, words, 6),
    quotes: per100(quotes.count, words, 15),
    digits: per100(digits.count, words, 10),
    plainDashes: per100(plainDashes.count, words, 3),
    machineWords: per100(machine.count, words, 12),
    // Words the tagger's English lexicon does not list: typos, slang, rare names and terms. Models
    // spell every word the dictionary way; people misspell, coin and name. Human-side in seven of
    // eight dev genres (univariate AUROC 0.54-0.85; Q&A 0.40, where human answers are a few words).
    unlistedWords: per100(unlisted.count, words, 15),
    conversationalOpeners: lengths.length ? Math.min(0.5, conversational.count / lengths.length) : 0,
    fragments: lengths.length ? Math.min(0.5, fragments.count / lengths.length) : 0,
    functionWords: functionWordProfile(functionWordCounts, words, fwWeights),
    commas: per100(commas, words, 15),
    semicolons: per100(semicolons, words, 3),
    colons: per100(colons, words, 3),
    parentheses: per100(parentheses, words, 3),
    exclamations: per100(exclamations, words, 4),
  };
  const rateConfidence = Math.min(1, words / FULL_EVIDENCE_WORDS);
  const confidence: Record<string, number> = {};
  for (const k of Object.keys(raw)) confidence[k] = rateConfidence;
  // Signal-based features are already decisions with their own thresholds: no shrinkage.
  confidence.tells = 1;
  confidence.canned = 1;
  confidence.signposts = 1;
  confidence.excessVocab = 1;
  confidence.contractionShare = opportunities / (opportunities + 4);
  // Two sentences have no meaningful spread; trust the CV fully from eight sentences.
  confidence.sentenceCV = clamp((lengths.length - 2) / 6);
  // With one sentence the ratio is 1 by definition; trust it fully from five sentences.
  confidence.longestSentence = clamp(lengths.length / 5);
  // Sentence shares need a few sentences before they mean anything.
  confidence.conversationalOpeners = clamp(lengths.length / 5);
  confidence.fragments = clamp(lengths.length / 5);

  if (!evidence) return { raw, functionWordCounts, words, confidence, spans: {} };
  const spans: Record<string, Span[]> = {
    tells,
    signposts,
    excessVocab: vocab.map((h) => spanOf(text, h.start, h.end)),
    contractionShare: [...contractions.contracted, ...contractions.expanded].sort((x, y) => x.start - y.start),
    nominalizations: nominal.spans,
    participles: participles.spans,
    clauseOpeners: clauseOpeners.spans,
    firstPerson: firstPerson.spans,
    casual: casual.spans,
    quotes: quotes.spans,
    digits: digits.spans,
    plainDashes: plainDashes.spans,
    machineWords: machine.spans,
    unlistedWords: unlisted.spans,
    conversationalOpeners: conversational.spans,
    fragments: fragments.spans,
    longestSentence: longestSpan ? [spanOf(text, longestSpan.start, longestSpan.end)] : [],
  };
  return { raw, functionWordCounts, words, confidence, spans };
}

/**
 * The function-word profile of a text: the weighted sum of its function-word rates per 100 words.
 * @param counts - occurrences of each word of {@link FUNCTION_WORDS}
 * @param words - word count of the text
 * @param weights - per-word weights (none: the profile is 0)
 * @returns the profile value
 */
export function functionWordProfile(counts: ArrayLike<number>, words: number, weights: readonly number[] | undefined): number {
  if (!weights) return 0;
  let sum = 0;
  for (let i = 0; i < weights.length; i++) if (counts[i]) sum += weights[i] * counts[i];
  return (sum * 100) / Math.max(1, words);
}

/**
 * Pulls each raw value toward its human-typical prior in proportion to the missing evidence.
 * @param r - raw features and confidences
 * @param priors - human-typical values
 * @returns feature values by name
 */
export function shrinkFeatures(r: RawHumanLikenessFeatures, priors: Record<string, number>): HumanLikenessFeatures {
  const out: HumanLikenessFeatures = {};
  for (const k of Object.keys(r.raw)) {
    const prior = priors[k] ?? r.raw[k];
    out[k] = prior + r.confidence[k] * (r.raw[k] - prior);
  }
  return out;
}

/**
 * The feature record the logistic model reads: each raw value pulled toward its human-typical
 * prior in proportion to the missing evidence, x = prior + c * (raw - prior).
 * @param a - the analysis
 * @param signals - the machine-like signals detected on the same text
 * @param priors - human-typical values (defaults to the stored model's)
 * @returns feature values by name
 */
export function humanLikenessFeatures(a: Analysis, signals: readonly SignalHit[], priors: Record<string, number> = MODEL.priors): HumanLikenessFeatures {
  return shrinkFeatures(rawHumanLikenessFeatures(a, signals), priors);
}

/**
 * The probability of "human" a given model assigns to measured features, before the disclosure cap
 * (the eval's refits use it; the engine uses the stored model).
 * @param model - a fitted model
 * @param r - raw features of the text
 * @returns probability in 0..1
 */
export function predictHumanLikeness(model: HumanLikenessModel, r0: RawHumanLikenessFeatures): number {
  const r = { ...r0, raw: { ...r0.raw, functionWords: functionWordProfile(r0.functionWordCounts, r0.words, model.functionWordWeights) } };
  return Math.min(sigmoid(linearPredict(model, shrinkFeatures(r, model.priors)).value), cannedCap(r));
}

/**
 * Upper bound from canned assistant text: 1 minus the combined penalty of those signals. A reply
 * that is mostly stock phrases ("Certainly! I hope this helps!") cannot read as human however short
 * it is; shrinkage toward the human prior would otherwise let a 5-word reply score 84.
 * One stock phrase caps at 0.65, two at 0.42; 0.1% of human Reddit replies carry one.
 */
function cannedCap(r: RawHumanLikenessFeatures): number {
  return 1 - r.raw.canned;
}

/**
 * Probability that the reply's text was written by a person, from a logistic model over
 * stylometric features (weights in weights/human-likeness.json, fitted on the dev pairs).
 * A canned AI disclaimer caps the value at 0.02, whatever the style.
 * @param a - the analysis of the reply
 * @param signals - the signals detectSignals found on the same analysis
 * @param evidence - false when only the value is needed: contributions come back empty (the
 *   value is computed identically either way)
 * @returns value in 0..1 (1 = human-like) and the contributions behind it
 */
export function measureTextHumanLikeness(a: Analysis, signals: readonly SignalHit[], evidence = true): DimensionMeasure {
  const r = rawHumanLikenessFeatures(a, signals, evidence);
  const x = shrinkFeatures(r, MODEL.priors);
  const { value: eta, contributions: terms } = linearPredict(MODEL, x);
  const p = sigmoid(eta);
  const capped = Math.min(p, cannedCap(r));
  const disclosure = signals.find((s) => s.id === 'ai-self-disclosure');
  const value = disclosure ? Math.min(capped, MAX_WITH_SELF_DISCLOSURE) : capped;
  if (!evidence) return { value, contributions: [] };
  const contributions: Contribution[] = MODEL.features.map((feature, i) => ({
    feature,
    value: x[feature] ?? 0,
    weight: MODEL.weights[i],
    // Effect on the probability of this term against the training mean of the feature.
    delta: p - sigmoid(eta - terms[i]),
    spans: r.spans[feature] ?? [],
  }));
  if (capped < p) contributions.push({ feature: 'canned-text cap', value: r.raw.canned, weight: 0, delta: capped - p, spans: r.spans.tells ?? [] });
  if (disclosure && value < capped) {
    contributions.push({ feature: 'ai-self-disclosure cap', value: 1, weight: 0, delta: value - capped, spans: disclosure.spans });
  }
  contributions.sort((u, v) => Math.abs(v.delta) - Math.abs(u.delta) || (u.feature < v.feature ? -1 : u.feature > v.feature ? 1 : 0));
  return { value, contributions };
}
