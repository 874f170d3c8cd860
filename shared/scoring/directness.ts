import weights from './weights/directness.json';
import type { Analysis, Span, Token } from './types';
import type { Contribution, DimensionMeasure } from './measure-types';
import { compileLexicon, matchLexicon, type LexiconEntry } from './lexicon';
import { sigmoid, type LinearModel } from './math';
import { spanOf } from './span';
import { stemOf } from './stem';
import { measureHesitation } from './hesitation';
import { wordFact } from './word';

/** The versioned data behind the directness measure. */
export interface DirectnessWeights {
  version: string;
  /** Where the weights came from and how they were fitted. */
  fitted?: Record<string, unknown>;
  /** Politeness-strategy phrases; the category is the feature a hit feeds. */
  lexicon: LexiconEntry[];
  /** Logistic model over the text-only features (fitted on requests rated for politeness). */
  model: LinearModel;
  /**
   * Hand-set log-odds per unit of the two features that need the incoming message. The politeness
   * corpus has no incoming message, so they cannot be fitted there.
   */
  incoming: { answerFirst: number; preamble: number };
  /**
   * Hand-set log-odds per unit of hesitation (0..1). Requests in the politeness corpus rarely
   * hedge, so it fits near zero there; in replies a hedged answer is the mitigated, off-record
   * way of saying it (Brown & Levinson), and the profiles read it so.
   */
  mitigation: { hedging: number };
  /**
   * Directness of a reply in which no feature fired, hand-set. The corpus cannot place it: 99.5%
   * of its requests contain a question, so a plain statement is outside the data, and a reply
   * with no redress at all is bald on record (Brown & Levinson). Moving every log-odds by the same
   * constant leaves every rank metric unchanged.
   */
  baseline: number;
}

/**
 * Every directness feature the extractor computes, in a fixed order. Strategy and sentence-start
 * features are hits per sentence, capped at 1; answerFirst is 0/1 and preamble a share of words.
 */
export const DIRECTNESS_FEATURES = [
  'gratitude',
  'deference',
  'greeting',
  'apology',
  'please',
  'pleaseStart',
  'counterfactual',
  'indicative',
  'indirect',
  'wondering',
  'mitigator',
  'factuality',
  'emphasis',
  'negative',
  'positive',
  'imperative',
  'whStart',
  'why',
  'directStart',
  'secondPersonStart',
  'firstPersonStart',
  'youQuestion',
  'negativeQuestion',
  'questions',
  'negation',
  'firstPersonPlural',
  'exclamations',
  'hedging',
  'answerFirst',
  'preamble',
] as const;

/** One directness feature name. */
export type DirectnessFeature = (typeof DIRECTNESS_FEATURES)[number];

const WEIGHTS = weights as DirectnessWeights;

/** Version string of the frozen directness weights, for the scorer's version report. */
export const DIRECTNESS_VERSION: string = WEIGHTS.version;

const LEXICON = compileLexicon(WEIGHTS.lexicon);
const INDEX = new Map<string, number>(DIRECTNESS_FEATURES.map((f, i) => [f, i]));
/** Feature name to its slot in the value array (a plain object: property reads are cheapest). */
const I = Object.fromEntries(DIRECTNESS_FEATURES.map((f, i) => [f, i])) as Record<DirectnessFeature, number>;

// Word classes, looked up once per token as bit flags (closed lists: the tagger calls a capital
// "I" PROPN).
const WH = 1;
const WHY = 2;
const DIRECT_START = 4;
const SECOND_PERSON = 8;
const FIRST_PERSON = 16;
const FIRST_PLURAL = 32;
const NEGATION = 64;
const DEFERENCE_START = 128;
const LEAD_IN = 256;
const NOT_IMPERATIVE = 512;
const COMMAND_VERB = 1024;
const SOFT_MODAL = 2048;
const ANSWER_PARTICLE = 4096;
const WORD_FLAGS = new Map<string, number>();
function flag(words: readonly string[], bit: number): void {
  for (const w of words) WORD_FLAGS.set(w, (WORD_FLAGS.get(w) ?? 0) | bit);
}
flag(['what', 'how', 'where', 'when', 'who', 'which', 'whom', 'whose', "what's", "how's", "where's", "who's", 'whats', 'hows'], WH);
flag(['why', "why's", 'whys'], WHY);
flag(['so', 'and', 'but', 'or', 'then'], DIRECT_START);
flag(['you', 'your', "you're", 'yours', 'yourself', 'u', 'ur', 'youre'], SECOND_PERSON);
flag(['i', 'my', "i'm", 'im', 'me'], FIRST_PERSON);
flag(['we', 'us', 'our', 'ours', 'ourselves'], FIRST_PLURAL);
flag(['not', "n't", 'nt', 'no', 'never', 'nothing', 'none', 'nobody', 'neither', 'nor', 'cannot'], NEGATION);
// Sentence-initial compliments read as deference ("Great, ...", "Nice article"), Danescu-Niculescu-Mizil et al. 2013.
flag(['great', 'good', 'nice', 'interesting', 'cool', 'excellent', 'awesome', 'wonderful', 'fantastic', 'brilliant', 'lovely', 'neat'], DEFERENCE_START);
// Words a request may open with before its verb: "Please just restart it", "OK so check the logs".
flag(['please', 'pls', 'plz', 'just', 'so', 'ok', 'okay', 'now', 'then', 'also', 'and', 'but', 'well', 'oh', 'yes', 'yeah', 'no', 'sure', 'alright', 'hey', 'hi', 'first', 'next', 'again'], LEAD_IN);
// Subject-less statements ("Hope that helps", "Sounds good") look like imperatives to a tagger.
flag(['thank', 'thanks', 'hope', 'think', 'guess', 'wish', 'agree', 'love', 'sounds', 'looks', 'seems', 'need', 'got', 'had', 'was', 'did', 'went', 'made', 'said', 'saw', 'tried', 'found', 'means', 'sorry', 'welcome', 'congrats', 'cheers', 'done', 'gone', 'noted'], NOT_IMPERATIVE);
// Common command verbs the tagger mislabels at the start of a sentence ("Check" as PROPN).
flag([
  'check', 'see', 'look', 'read', 'add', 'remove', 'delete', 'stop', 'try', 'use', 'fix', 'make', 'take', 'give', 'tell',
  'let', 'keep', 'put', 'go', 'get', 'find', 'run', 'restart', 'open', 'close', 'send', 'note', 'click', 'type', 'install',
  'update', 'change', 'move', 'call', 'ask', 'wait', 'leave', 'consider', 'avoid', 'remember', 'follow', 'set', 'turn',
  'write', 'copy', 'paste', 'save', 'reboot', 'rename', 'replace', 'create', 'drop', 'pick', 'grab', 'start', 'stay', 'be',
  'show', 'explain', 'clarify', 'revert', 'merge', 'feel', 'come', 'bring', 'cite', 'provide', 'review', 'edit',
], COMMAND_VERB);
// Modals that make "could you ...?" a request rather than a bare question to the reader.
flag(['could', 'would', 'can', 'will', 'might', 'may'], SOFT_MODAL);
// A reply that opens with one of these has answered before anything else ("No. Ship it Monday.").
flag(['yes', 'no', 'yep', 'yup', 'yeah', 'nope', 'nah', 'done', 'sure', 'correct', 'right', 'exactly', 'absolutely', 'definitely', 'ok', 'okay'], ANSWER_PARTICLE);
const CONTENT_POS = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ']);
const COUNTED_CAP = 1;

/** Span evidence as flat (feature, start, end) triples; null when only values are needed. */
type SpanSink = number[] | null;

// The tokenizer keeps an abbreviation-like full stop on some words ("No." as in "number").
const wordFlags = wordFact((norm: string): number =>
  norm.length > 1 && norm.charCodeAt(norm.length - 1) === 46 ? WORD_FLAGS.get(norm.slice(0, -1)) ?? 0 : WORD_FLAGS.get(norm) ?? 0,
);

function flagsOf(t: Token): number {
  return t.kind === 'word' ? wordFlags(t.word) : 0;
}

/** First word token of a sentence, or -1. */
function firstWordOf(tokens: Token[], first: number, last: number): number {
  for (let i = first; i < last; i++) if (tokens[i].kind === 'word') return i;
  return -1;
}

/**
 * Index of the verb when the sentence opens with a command: a base-form verb after optional
 * lead-ins ("Please restart it", "OK so check the logs", "Don't do that"); otherwise -1.
 */
function imperativeAt(tokens: Token[], first: number, last: number): number {
  let i = first;
  let skipped = 0;
  while (i < last && skipped < 4) {
    const t = tokens[i];
    if (t.kind === 'punctuation' || t.kind === 'symbol') { i++; continue; }
    if (flagsOf(t) & LEAD_IN) { i++; skipped++; continue; }
    break;
  }
  if (i >= last || tokens[i].kind !== 'word') return -1;
  const t = tokens[i];
  const norm = t.norm;
  const flags = flagsOf(t);
  if (flags & NOT_IMPERATIVE) return -1;
  const next = i + 1 < last ? tokens[i + 1] : null;
  if ((norm === 'do' || norm === 'don') && next !== null && (next.norm === "n't" || next.norm === 'nt' || next.norm === 't')) {
    const after = i + 2 < last ? tokens[i + 2] : null;
    return after !== null && !(flagsOf(after) & SECOND_PERSON) ? i : -1;
  }
  if (norm === "don't" || norm === 'never') return i;
  if (norm.endsWith('ing') || (norm.length > 4 && norm.endsWith('ed') && norm !== 'proceed')) return -1;
  if (t.pos === 'VERB') return i;
  if (flags & COMMAND_VERB && (next === null || (next.pos !== 'AUX' && next.pos !== 'VERB'))) return i;
  return -1;
}

/** Counts one fired feature and records where. */
function fire(x: number[], sink: SpanSink, feature: number, start: number, end: number): void {
  x[feature]++;
  if (sink) sink.push(feature, start, end);
}

/**
 * Computes every directness feature, optionally recording where each fired.
 * @param a - the analysis of the reply
 * @param incoming - the analysis of the message being answered, if any
 * @param sink - receives (feature, start, end) triples, or null when only values are needed
 * @param hesitation - the precomputed hesitation measure, if any
 * @returns feature values in {@link DIRECTNESS_FEATURES} order
 */
function extract(a: Analysis, incoming: Analysis | undefined, sink: SpanSink, hesitation?: DimensionMeasure): number[] {
  // Not a Float64Array: typed arrays over 64 bytes live outside the heap and are slow to allocate.
  const x: number[] = new Array<number>(DIRECTNESS_FEATURES.length).fill(0);
  const tokens = a.tokens;
  let sentences = 0;
  for (const s of a.sentences) if (s.words > 0) sentences++;
  if (sentences === 0) return x;

  const hits = matchLexicon(a, LEXICON);
  // Sentence-first tokens already explained by a phrase ("Good morning"), so deference skips them.
  const covered: number[] = [];
  for (const h of hits) {
    const feature = INDEX.get(h.category);
    if (feature === undefined) continue;
    const s = a.sentences[tokens[h.token].sentence];
    const atStart = h.token === firstWordOf(tokens, s.first, s.last);
    fire(x, sink, feature === I.please && atStart ? I.pleaseStart : feature, h.start, h.end);
    if (atStart) covered.push(h.token);
  }

  for (const s of a.sentences) {
    if (s.words === 0) continue;
    let asks = false;
    for (let i = s.first; i < s.last; i++) {
      const u = tokens[i];
      if (u.kind === 'punctuation') {
        if (u.norm === '?') {
          asks = true;
          // "??" is one question.
          if (i + 1 >= s.last || tokens[i + 1].norm !== '?') fire(x, sink, I.questions, u.start, u.end);
        } else if (u.norm === '!') {
          fire(x, sink, I.exclamations, u.start, u.end);
        }
        continue;
      }
      const flags = flagsOf(u);
      if (flags & WHY) fire(x, sink, I.why, u.start, u.end);
      else if (flags & NEGATION) fire(x, sink, I.negation, u.start, u.end);
      else if (flags & FIRST_PLURAL || (u.norm === "'s" && i > 0 && tokens[i - 1].norm === 'let')) fire(x, sink, I.firstPersonPlural, u.start, u.end);
    }

    const fw = firstWordOf(tokens, s.first, s.last);
    const t = tokens[fw];
    const flags = flagsOf(t);
    const next = fw + 1 < s.last ? tokens[fw + 1] : null;
    if (flags & WH) fire(x, sink, I.whStart, t.start, t.end);
    if (flags & DIRECT_START) fire(x, sink, I.directStart, t.start, t.end);
    if (flags & SECOND_PERSON) fire(x, sink, I.secondPersonStart, t.start, t.end);
    if (flags & FIRST_PERSON) fire(x, sink, I.firstPersonStart, t.start, t.end);
    if (flags & DEFERENCE_START && next !== null && (next.kind === 'punctuation' || next.pos === 'NOUN') && !covered.includes(fw)) {
      fire(x, sink, I.deference, t.start, t.end);
    }
    if (t.pos === 'AUX' && next !== null) {
      // "Did you ...?", "Are you ...?": a bare yes/no question put to the reader.
      if (flagsOf(next) & SECOND_PERSON && !(flags & SOFT_MODAL)) fire(x, sink, I.youQuestion, t.start, next.end);
      // "Shouldn't ...?", "Isn't it ...?": a question that presumes the answer.
      if (next.norm === "n't" || next.norm === 'nt') fire(x, sink, I.negativeQuestion, t.start, next.end);
    }
    // A question mark makes "Know what I mean?" a question, not a command.
    const verb = asks ? -1 : imperativeAt(tokens, s.first, s.last);
    if (verb >= 0) fire(x, sink, I.imperative, tokens[verb].start, tokens[verb].end);
  }

  // Per-sentence shares, capped, so a long reply does not pile up mitigation by sheer length.
  const inv = 1 / sentences;
  for (let j = 0; j < x.length; j++) x[j] = Math.min(COUNTED_CAP, x[j] * inv);

  // Hedging is Brown & Levinson's negative-politeness strategy "question, hedge": it mitigates.
  // The hesitation measure owns hedge detection, so its value is reused here, not re-detected.
  const h = hesitation ?? measureHesitation(a, sink !== null);
  x[I.hedging] = h.value;
  if (sink) for (const c of h.contributions) for (const sp of c.spans) sink.push(I.hedging, sp.start, sp.end);

  if (incoming && incoming.contentStems.size > 0) answerPosition(a, incoming, x, sink);
  return x;
}

/**
 * Finds where the reply answers: at once when it opens with "yes", "no", "done" and the like,
 * otherwise at the first sentence that takes up the incoming message's content (a shared content
 * stem). Answering in the first sentence is direct; words spent before the answer are preamble.
 */
function answerPosition(a: Analysis, incoming: Analysis, x: number[], sink: SpanSink): void {
  const tokens = a.tokens;
  const opener = firstWordOf(tokens, 0, tokens.length);
  if (opener >= 0 && flagsOf(tokens[opener]) & ANSWER_PARTICLE) {
    x[I.answerFirst] = 1;
    if (sink) sink.push(I.answerFirst, tokens[opener].start, tokens[opener].end);
    return;
  }
  let before = 0;
  let index = 0;
  for (const s of a.sentences) {
    if (s.words === 0) continue;
    for (let i = s.first; i < s.last; i++) {
      const t = tokens[i];
      // The same content-word test analyze() applies to build contentStems.
      if (t.kind !== 'word' || t.stop || !CONTENT_POS.has(t.pos) || t.norm.length <= 2 || t.norm.includes("'")) continue;
      if (!incoming.contentStems.has(stemOf(t.word))) continue;
      if (index === 0) {
        x[I.answerFirst] = 1;
        if (sink) sink.push(I.answerFirst, t.start, t.end);
      } else {
        x[I.preamble] = before / Math.max(1, a.words);
        if (sink) sink.push(I.preamble, tokens[a.sentences[0].first].start, tokens[s.first - 1].end);
      }
      return;
    }
    before += s.words;
    index++;
  }
}

/**
 * The directness features of a reply; the fit script and the runtime share it.
 * @param a - the analysis of the reply
 * @param incoming - the analysis of the message being answered, if any
 * @returns feature values by name (all zeros for an empty reply)
 */
export function directnessFeatures(a: Analysis, incoming?: Analysis, hesitation?: DimensionMeasure): Record<DirectnessFeature, number> {
  const values = extract(a, incoming, null, hesitation);
  const out = {} as Record<DirectnessFeature, number>;
  for (let j = 0; j < DIRECTNESS_FEATURES.length; j++) out[DIRECTNESS_FEATURES[j]] = values[j];
  return out;
}

interface Term {
  feature: DirectnessFeature;
  index: number;
  /** Log-odds per unit of the raw feature. */
  slope: number;
}

/**
 * The model re-expressed against a zero baseline: log-odds = base + Σ slope·x, with base set by
 * the hand-set baseline. A feature that did not fire then contributes nothing, so every
 * contribution is a strategy that is in the text.
 */
function compile(w: DirectnessWeights): { base: number; terms: Term[] } {
  const m = w.model;
  const terms: Term[] = [];
  for (let i = 0; i < m.features.length; i++) {
    const slope = m.weights[i] / (m.scale[i] || 1);
    const index = INDEX.get(m.features[i]);
    if (index === undefined) throw new Error(`directness weights name an unknown feature: ${m.features[i]}`);
    terms.push({ feature: m.features[i] as DirectnessFeature, index, slope });
  }
  terms.push({ feature: 'answerFirst', index: I.answerFirst, slope: w.incoming.answerFirst });
  terms.push({ feature: 'preamble', index: I.preamble, slope: w.incoming.preamble });
  terms.push({ feature: 'hedging', index: I.hedging, slope: w.mitigation.hedging });
  // The fitted intercept would put the no-feature reply at the corpus's level; the baseline replaces it.
  return { base: Math.log(w.baseline / (1 - w.baseline)), terms };
}

const COMPILED = compile(WEIGHTS);

/** The spans of one feature from the flat evidence triples. */
function spansOf(text: string, sink: number[], feature: number): Span[] {
  const spans: Span[] = [];
  for (let k = 0; k < sink.length; k += 3) if (sink[k] === feature) spans.push(spanOf(text, sink[k + 1], sink[k + 2]));
  return spans;
}

/**
 * Measures directness: the logistic model over politeness strategies.
 * 1 reads as bald on record, 0 as mitigated and indirect. Only features that fired contribute.
 * The deltas share out the distance from a reply with no strategy at all (the baseline) to the value,
 * in proportion to each feature's log-odds, so they add up exactly and keep their signs; a
 * leave-one-out difference would shrink to nothing wherever the sigmoid saturates.
 * @param a - the analysis of the reply
 * @param incoming - the analysis of the message being answered; enables the answer-first terms
 * @param hesitation - the reply's hesitation measure when already computed (hedges mitigate); with
 *   evidence, it must carry its contributions, whose spans become the hedging evidence
 * @param evidence - false when only the value is needed: contributions come back empty (the
 *   value is computed identically either way)
 * @returns the value and the contributions that explain it
 */
export function measureDirectness(a: Analysis, incoming?: Analysis, hesitation?: DimensionMeasure, evidence = true): DimensionMeasure {
  const sink: SpanSink = evidence ? [] : null;
  const x = extract(a, incoming, sink, hesitation);
  const base = COMPILED.base;
  let eta = base;
  for (const term of COMPILED.terms) eta += term.slope * x[term.index];
  const value = sigmoid(eta);
  const moved = eta - base;
  // Secant of the sigmoid between the baseline and the value; its tangent when they coincide.
  const perLogit = Math.abs(moved) > 1e-12 ? (value - sigmoid(base)) / moved : value * (1 - value);
  const contributions: Contribution[] = [];
  if (!sink) return { value, contributions };
  for (const term of COMPILED.terms) {
    const v = x[term.index];
    if (v === 0 || term.slope === 0) continue;
    contributions.push({
      feature: term.feature,
      value: v,
      weight: term.slope,
      delta: perLogit * term.slope * v,
      spans: spansOf(a.text, sink, term.index),
    });
  }
  contributions.sort(byImpact);
  return { value, contributions };
}

function byImpact(x: Contribution, y: Contribution): number {
  const d = Math.abs(y.delta) - Math.abs(x.delta);
  if (d !== 0) return d;
  return x.feature < y.feature ? -1 : x.feature > y.feature ? 1 : 0;
}
