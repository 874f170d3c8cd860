import type { Analysis, LexiconHit, Sentence, Span } from './types';
import type { Contribution, EmpathyMeasure, MechanismLevel } from './measure-types';
import { compileLexicon, type Lexicon, type LexiconEntry } from './lexicon';
import { clamp } from './math';
import { spanOf } from './span';
import { stemOf } from './stem';
import { wordFact } from './word';
import {
  AFFIRMATION_WORDS,
  ATTRIBUTION_BRIDGE,
  CONCERN_WORDS,
  DISTRESS_NEGATORS,
  DISTRESS_PHRASES,
  EMOTION_WORDS,
  EMPATHY_PHRASES,
  FEELING_WORDS,
  GENERIC_STEMS,
  NEGATION_BRIDGE,
  STANCE_AFTER_I,
  STANCE_SKIP,
  SITUATION_WORDS,
  SUGGESTION_PHRASES,
  VALENCE_PHRASES,
  VARIABLE_I_NEXT,
} from './lexicons/empathy';
import config from './weights/empathy.json';

/** The three EPITOME mechanisms: emotional reactions, interpretations, explorations. */
export type Mechanism = 'er' | 'ip' | 'ex';

/**
 * The constructions the value is built from, each counted in sentences. Positive: an emotional
 * reaction to the person ("I'm so sorry"), a supportive formula ("hang in there"), reflection
 * ("it sounds like you're exhausted"), perspective-taking ("I can imagine"), validation ("that makes
 * sense"), shared experience ("I went through the same"), exploration (a question about them),
 * restatement (a statement about them: "you've tried everything") and concern for someone's
 * suffering ("it's so sad what happened to them") and felt intensity (an intensifier on a feeling word:
 * "so sad", "really hard") and naming a feeling in a statement (emotion labelling: "that's frustrating",
 * "I was scared for them", "you felt let down"; a feeling put as a question explores instead). Negative: dismissal ("calm down", "could be worse") and phatic small talk
 * (greetings, goodbyes, laughter: talk about the conversation, not the person).
 */
export type Construct = 'reaction' | 'support' | 'reflection' | 'perspective' | 'validation' | 'shared' | 'exploration' | 'restatement' | 'concern' | 'intensity' | 'feeling' | 'dismissal' | 'phatic';

/** Every construct, in the order the weights file lists them. */
export const CONSTRUCTS: readonly Construct[] = ['reaction', 'support', 'reflection', 'perspective', 'validation', 'shared', 'exploration', 'restatement', 'concern', 'intensity', 'feeling', 'dismissal', 'phatic'];

/** The raw evidence behind an empathy measure; the fit script reads the same numbers the measure uses. */
export interface EmpathyFeatures {
  /** Sentences carrying each construct. */
  constructs: Record<Construct, number>;
  /** Sentences with a positive construct that share a content stem with the incoming message: acknowledgement of their situation. */
  specific: number;
  /** Distinct content stems of the incoming message the reply's statements take up: what they said, acknowledged in their words. */
  echo: number;
  /** Spans per construct, in text order (empty without evidence). */
  constructSpans: Record<Construct, Span[]>;
  levels: Record<Mechanism, MechanismLevel>;
  /** Number of sentences holding at least one marker of the mechanism. */
  sentences: Record<Mechanism, number>;
  /** Marker spans per mechanism, in text order. */
  spans: Record<Mechanism, Span[]>;
  /** Warm words of the reply, saturating in 0..1. */
  warmth: number;
  /** Contemptuous words of the reply ("get over it", "pathetic"), saturating in 0..1. */
  contempt: number;
  warmthSpans: Span[];
  contemptSpans: Span[];
  /** Number of sentences that advise: a suggestion ("you should", "have you tried") or a bare command with no empathy marker. */
  advice: number;
  adviceSpans: Span[];
}

interface Marker {
  /** The EPITOME mechanism the marker shows, or null for a construct outside the three. */
  mechanism: Mechanism | null;
  construct: Construct;
  sentence: number;
  start: number;
  end: number;
}

type Phrase = Lexicon['byFirst'] extends Map<string, (infer P)[]> ? P : never;

/**
 * The lexicon phrases that start at one word, indexed by their second word as well. Dozens of empathy
 * phrases start with "i" or "you" and matchLexicon tries each of them at every "i"; with this index a token
 * costs one map lookup, which keeps the measure inside its budget (~40 us per 100-word reply). Matching is
 * the same as matchLexicon's: left to right, longest phrase first, no overlaps (the eval figures came out
 * identical with either matcher).
 */
interface Starts {
  single?: Phrase;
  bySecond?: Map<string, Phrase[]>;
}

/** What the reply scan needs to know about one word, found with a single lookup. */
interface WordInfo {
  phrase?: Starts;
  valence?: Starts;
  /** 1 first person, 2 second person, 0 neither. */
  person: 0 | 1 | 2;
  /** Word classes of the construction rules, as CLASS bits. */
  classes: number;
}

// Word classes of the construction rules (see lexicons/empathy.ts).
const EMOTION = 1;
const FEELING = 2;
const AFFIRM = 4;
const BRIDGE_WORD = 8;
const SITUATION = 16;
const NEGATOR = 32;
const SUBJECT_YOU = 64;
const YOUR = 128;
const REACTING_I = 256;
const CONCERN = 512;
const THIRD = 2048;
// After a bare "sorry", these make it an apology for oneself ("sorry I misunderstood", "sorry about that"), not sympathy.
const APOLOGY_NEXT = new Set(['i', "i'm", 'im', 'my', 'if', 'but', 'guys', 'lol', 'haha', 'not', 'again', '?']);
// A counsellor's summary opens with "so" and goes on to state, not ask: "So it's hard to say no to
// your friends", "So that's what you've always done". After these words "so" asks or moves on instead.
const SO_ASKS = new Set(['what', 'how', 'why', 'when', 'where', 'who', 'which', 'do', 'does', 'did', 'are', 'is', 'was', 'were', 'can', 'could', 'would', 'will', 'should', 'have', 'has', 'let', "let's", 'lets', 'i', "i'm", 'im', "i'll", "i'd", 'we', "we'll", "we're", 'anyway', 'yeah', 'much', 'far', 'many', 'now', 'to', 'then']);
const BACKCHANNEL = new Set(['okay', 'ok', 'mm', 'mhm', 'mm-hmm', 'hmm', 'yeah', 'yes', 'right', 'alright', 'uh', 'um', 'well', 'and', 'oh', 'ah', 'uh-huh', 'all']);
const APOLOGY_OBJECT = new Set(['that', 'the', 'my', 'being', 'this', 'late', 'bothering']);
const INTENSIFIER = 1024;
// Intensifiers that show felt intensity when they modify a feeling word ("so sad", "really hard").
const INTENSIFIERS = ['so', 'really', 'very', 'such', 'truly', 'extremely', 'incredibly', 'absolutely', 'too', 'deeply', 'terribly', 'super', 'sooo', 'soo', 'utterly'];
// A feeling word followed by one of these points the feeling at the other person: "sad for you", "glad to hear".
const TOWARD = new Set(['for', 'to', 'about', 'that']);
// How far a construction may reach from its subject to its feeling word.
const REACH = 5;
// Before "you", these make the sentence generic or causative advice: "if you feel sad", "makes you happy".
const GENERIC_LEAD = new Set(['if', 'when', 'whenever', 'unless', 'once', 'until', 'make', 'makes', 'made', 'making', 'let', 'help', 'helps', 'force', 'should', 'shouldn', 'why']);
// Lead-ins before a command ("Just try it", "So call her") and subject-less openers that are not commands.
const COMMAND_LEAD = new Set(['just', 'please', 'so', 'maybe', 'also', 'and', 'then', 'ok', 'okay', 'well', 'now', 'first', 'but', 'perhaps']);
const NOT_COMMAND = new Set(['thank', 'hope', 'sound', 'seem', 'look', 'feel', 'love', 'wish', 'bless', 'sorry', 'welcome', 'miss', 'know', 'think', 'guess', 'mean', 'agree', 'understand', 'hate', 'want', 'need', 'got', 'had', 'did', 'was']);
// Before a second-person subject: where a statement about the person can start ("so you've tried",
// "sounds like you", "and you're still there"); after any other word "you" is an object ("thank you").
const SUBJECT_LEAD = new Set(['so', 'and', 'but', 'well', 'okay', 'ok', 'yeah', 'now', 'because', 'cause', "'cause", 'like', 'that', 'then', 'also', 'since', 'as', 'while', 'though', 'although', 'mm', 'hmm', 'oh', 'right', 'yes', 'really', 'sounds', 'seems', 'guess', 'think', 'see', 'know', 'hear', 'mean', 'understand', 'where', 'when', 'which', 'who', 'and', 'or', 'still', 'even', 'all']);
// After "you": a modal or obligation that turns the statement into advice ("you should", "you need to").
const ADVICE_AFTER_YOU = new Set(['should', 'shouldn', 'need', 'needs', 'have', 'has', "'ll", 'will', 'could', 'can', 'might', 'may', 'must', 'gotta', 'better', 'ought', 'would', "'d"]);
// Words that may come before a sentence-opening evaluation: "Oh, that's awful", "Wow how scary".
const INTERJECTION = new Set(['oh', 'ohh', 'wow', 'aw', 'aww', 'yeah', 'yes', 'well', 'man', 'gosh', 'geez', 'jeez', 'god', 'omg', 'ugh', 'and', 'but', 'honestly', 'really', 'ok', 'okay', 'hmm', 'ah']);

function indexStarts(lex: Lexicon): Map<string, Starts> {
  if (lex.wildcardFirst.length > 0) throw new Error('lexicon: wildcards are not supported here');
  const index = new Map<string, Starts>();
  for (const [first, list] of lex.byFirst) {
    const starts: Starts = {};
    for (const p of list) {
      if (p.parts.includes('*')) throw new Error(`lexicon: wildcards are not supported here (${p.id})`);
      if (p.parts.length === 1) {
        starts.single ??= p;
        continue;
      }
      starts.bySecond ??= new Map();
      const bucket = starts.bySecond.get(p.parts[1]) ?? [];
      bucket.push(p);
      starts.bySecond.set(p.parts[1], bucket);
    }
    index.set(first, starts);
  }
  return index;
}

/** The longest phrase of `starts` that matches at token i, if any. */
function phraseAt(tokens: Analysis['tokens'], i: number, starts: Starts): Phrase | undefined {
  const bucket = starts.bySecond && i + 1 < tokens.length ? starts.bySecond.get(tokens[i + 1].norm) : undefined;
  if (bucket) {
    for (const p of bucket) {
      if (i + p.parts.length > tokens.length) continue;
      let k = 2;
      while (k < p.parts.length && tokens[i + k].norm === p.parts[k]) k++;
      if (k === p.parts.length) return p;
    }
  }
  return starts.single;
}

function hitOf(tokens: Analysis['tokens'], i: number, p: Phrase): LexiconHit {
  const length = p.parts.length;
  return { id: p.id, category: p.category, weight: p.weight, token: i, length, start: tokens[i].start, end: tokens[i + length - 1].end };
}

function buildVocabulary(): Map<string, WordInfo> {
  const vocabulary = new Map<string, WordInfo>();
  const entry = (word: string): WordInfo => {
    let info = vocabulary.get(word);
    if (!info) vocabulary.set(word, (info = { person: 0, classes: 0 }));
    return info;
  };
  const mark = (words: readonly string[], bit: number) => {
    for (const word of words) entry(word).classes |= bit;
  };
  const suggestions = SUGGESTION_PHRASES.map((phrase): LexiconEntry => ({ phrase, category: 'advise', weight: 0 }));
  for (const [word, starts] of indexStarts(compileLexicon([...EMPATHY_PHRASES, ...suggestions]))) entry(word).phrase = starts;
  mark(EMOTION_WORDS, EMOTION);
  mark(FEELING_WORDS, FEELING);
  mark(AFFIRMATION_WORDS, AFFIRM);
  mark(ATTRIBUTION_BRIDGE, BRIDGE_WORD);
  mark(SITUATION_WORDS, SITUATION);
  mark(['not', "n't", 'never', 'nt'], NEGATOR);
  mark(['you', 'u', 'ya', "you're", 'youre', "you've", "you'd", "you'll"], SUBJECT_YOU);
  mark(['your', 'ur'], YOUR);
  mark(['i', "i'm", 'im', "i've", "i'd", 'me'], REACTING_I);
  mark(CONCERN_WORDS, CONCERN);
  mark(INTENSIFIERS, INTENSIFIER);
  mark(['he', 'she', 'they', "he's", "she's", "they're", 'theyre', 'hes', 'shes', "they've", "he'd", "she'd", "they'd"], THIRD);
  for (const [word, starts] of indexStarts(compileLexicon(VALENCE_PHRASES))) entry(word).valence = starts;
  for (const word of ['i', 'me', 'my', 'myself', 'mine', "i'm", 'im', "i've", 'ive', "i'd", "i'll"]) entry(word).person = 1;
  for (const word of ['you', 'your', 'yours', 'yourself', 'u', 'ur', "you're", 'youre', "you've", "you'd", "you'll", 'ya']) entry(word).person = 2;
  return vocabulary;
}

const VOCABULARY = buildVocabulary();
const wordInfo = wordFact((norm: string): WordInfo | null => VOCABULARY.get(norm) ?? null);
const DISTRESS = indexStarts(compileLexicon(DISTRESS_PHRASES));
const NEGATORS = new Set(DISTRESS_NEGATORS);
const BRIDGE = new Set(NEGATION_BRIDGE);
const GENERIC = new Set(GENERIC_STEMS);
const STANCE = new Set(STANCE_AFTER_I);
const STANCE_SKIPPED = new Set(STANCE_SKIP);
const VARIABLE_NEXT = new Set(VARIABLE_I_NEXT);
// Subject forms whose verb is checked for a stance; object forms (me, my, myself) always count.
const SUBJECT_I = new Set(['i', "i'm", 'im', "i'd", 'id', "i'll"]);
// Same content filter as analyze() uses for Analysis.contentStems, applied to one sentence.
const CONTENT_POS = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ']);
const MECHANISMS: readonly Mechanism[] = ['er', 'ip', 'ex'];
// What each lexicon category marks: its mechanism (or none) and construct. "er" splits by weight:
// weight 2 is a feeling for the person (a reaction), weight 1 a supportive formula.
const MARKS_OF: Record<string, readonly (readonly [Mechanism | null, Construct])[]> = {
  er: [['er', 'support']],
  'er-2': [['er', 'reaction']],
  'er-ip': [['er', 'reaction'], ['ip', 'shared']],
  'ip-reflect': [['ip', 'reflection']],
  'ip-perspective': [['ip', 'perspective']],
  'ip-validate': [['ip', 'validation']],
  'ip-share': [['ip', 'shared']],
  'ip-lead': [['ip', 'shared']],
  ex: [['ex', 'exploration']],
  'ex-ask': [['ex', 'exploration']],
  perspective: [[null, 'perspective']],
  dismiss: [[null, 'dismissal']],
  phatic: [[null, 'phatic']],
  none: [],
  advise: [],
};
const MODEL = config.model;
const CALIBRATION = config.calibration;
// The anchor reply: two sentences tied to the person's message, "I'm so sorry you're exhausted. It
// sounds like the night shifts are wearing you down." (a reaction with felt intensity, a reflection,
// a feeling named in each, both restating them, both specific, echoing three of their words). More
// sentences saturate instead of stretching the scale for ordinary replies. With the 1.6.0 weights
// this keeps EPITOME's and ESConv's quartiles where 1.4.0 put them, so profile targets keep their meaning.
const FULL_STRENGTH =
  (MODEL.reaction + MODEL.intensity + MODEL.reflection) * Math.LN2 + (MODEL.feeling + MODEL.restatement + MODEL.specific) * Math.log(3) + MODEL.echo * Math.log(4);

/** A record with one fresh value per construct. */
function emptyCounts<T>(make: () => T): Record<Construct, T> {
  const out = {} as Record<Construct, T>;
  for (const c of CONSTRUCTS) out[c] = make();
  return out;
}

/** Whether a sentence of the reply has a content word whose stem the incoming message shares (stems are cached per word). */
function sharesContent(a: Analysis, s: Sentence, incomingStems: Set<string>): boolean {
  for (let i = s.first; i < s.last; i++) {
    const t = a.tokens[i];
    if (t.kind !== 'word' || t.stop || t.norm.length <= 2 || !CONTENT_POS.has(t.pos) || t.norm.includes("'")) continue;
    const st = stemOf(t.word);
    if (!GENERIC.has(st) && incomingStems.has(st)) return true;
  }
  return false;
}

/** Distinct content stems of the incoming message that the reply's statements (not its questions) repeat. */
function echoOf(a: Analysis, incomingStems: Set<string>, question: readonly number[]): number {
  let seen: Set<string> | undefined;
  for (const t of a.tokens) {
    if (t.kind !== 'word' || t.stop || t.norm.length <= 2 || !CONTENT_POS.has(t.pos) || t.norm.includes("'") || question[t.sentence]) continue;
    const st = stemOf(t.word);
    if (GENERIC.has(st) || !incomingStems.has(st)) continue;
    (seen ??= new Set()).add(st);
  }
  return seen ? seen.size : 0;
}

/**
 * Whether a first-person word talks about the writer's experience. "I think", "I'm not sure" and
 * "I'm afraid" state a stance or a politeness, and a lowercase "i" before "=" or "is" is a loop variable.
 */
function isDisclosingI(tokens: Analysis['tokens'], i: number): boolean {
  const t = tokens[i];
  if (!SUBJECT_I.has(t.norm)) return true;
  const next = tokens[i + 1];
  if (next === undefined) return true;
  if (t.norm === 'i' && t.text === 'i' && VARIABLE_NEXT.has(next.norm)) return false;
  for (let k = i + 1; k < tokens.length && k <= i + 4; k++) {
    const norm = tokens[k].norm;
    if (STANCE_SKIPPED.has(norm)) continue;
    return !STANCE.has(norm);
  }
  return true;
}

/** What a construction found: its mechanism and the token that ends it, or null. */
interface Construction {
  mechanism: Mechanism | null;
  construct: Construct;
  end: number;
}

/**
 * The construction rules, tried at a subject word: a subject, up to REACH bridge words (modals,
 * copulas, feeling verbs, intensifiers, negators), then a feeling or affirmation word.
 * - "you must be so lonely", "you seem stressed", "your feelings": a feeling attributed to the person
 *   is an interpretation (reflection of feelings); negated ("you're not alone") it reassures, an
 *   emotional reaction; "you are so strong" affirms, an emotional reaction. Not after "if", "when" or
 *   a causative verb ("if you feel sad, ...", "it will make you happy"): that is generic advice.
 * - "I feel sad for you", "I'm so sorry to hear": the writer's own feeling pointed at the person, an
 *   emotional reaction ("I was sad for years" is neither).
 * - "That's so hard.", "How awful", "Oh, that sounds scary": an evaluation of the situation's feeling
 *   opening the sentence, an emotional reaction ("it's hard to say" is not one).
 * The caller rules out questions for the "you" rule: a question about feelings explores.
 */
function constructionAt(tokens: Analysis['tokens'], i: number, first: number, last: number, classes: number): Construction | null {
  let you = (classes & SUBJECT_YOU) !== 0;
  const your = (classes & YOUR) !== 0;
  const me = (classes & REACTING_I) !== 0;
  const situation = (classes & SITUATION) !== 0 && openerAt(tokens, first, i);
  const third = (classes & THIRD) !== 0;
  if (you) {
    const before = i > first ? tokens[i - 1].norm : '';
    const before2 = i - 1 > first ? tokens[i - 2].norm : '';
    if (GENERIC_LEAD.has(before) || GENERIC_LEAD.has(before2)) you = false;
  }
  if (!you && !your && !me && !situation && !third) return null;
  let negated = false;
  for (let k = i + 1; k < last && k <= i + REACH; k++) {
    const c = wordInfo(tokens[k].word)?.classes ?? 0;
    if (c & EMOTION || (your && c & FEELING)) {
      const next = k + 1 < last ? tokens[k + 1].norm : '';
      if (you || your) return negated ? { mechanism: 'er', construct: 'support', end: k } : { mechanism: 'ip', construct: 'reflection', end: k };
      // "He was probably terrified", "they must be so scared": imagining how someone else feels.
      if (third) return negated ? null : { mechanism: null, construct: 'perspective', end: k };
      if (me) return TOWARD.has(next) ? { mechanism: 'er', construct: 'reaction', end: k } : null;
      // "it's hard to find work" judges a task; "it's hard to hear" still reacts.
      if (next === 'to' && (k + 2 >= last || tokens[k + 2].norm !== 'hear')) return null;
      return { mechanism: 'er', construct: 'reaction', end: k };
    }
    if (c & AFFIRM && you) return { mechanism: 'er', construct: 'support', end: k };
    // "your" takes its feeling noun at once ("your pain"), not across words.
    if (your || !(c & BRIDGE_WORD)) return null;
    if (c & NEGATOR) negated = true;
  }
  return null;
}

/**
 * Index of the verb when a sentence opens with a command (a base-form verb after at most two
 * lead-ins: "Just try it", "So call her"), else -1. Subject-less feelings and thanks ("Hope you...",
 * "Sounds hard", "Thank you") are not commands.
 */
function commandAt(tokens: Analysis['tokens'], first: number, last: number): number {
  let skipped = 0;
  for (let k = first; k < last; k++) {
    const t = tokens[k];
    if (t.kind !== 'word') continue;
    if (COMMAND_LEAD.has(t.norm) && skipped < 2) {
      skipped++;
      continue;
    }
    if (t.pos !== 'VERB' || NOT_COMMAND.has(t.norm) || t.norm.endsWith('ing') || t.norm.endsWith('ed') || t.norm.endsWith('s')) return -1;
    return k;
  }
  return -1;
}

/**
 * Whether the second-person word at token i is the subject of a statement about the person ("you've
 * tried everything", "so you're back at work"), not an object ("thank you"), generic ("if you feel")
 * or advice ("you should").
 */
function youSubjectAt(tokens: Analysis['tokens'], i: number, first: number, last: number): boolean {
  const before = i > first ? tokens[i - 1] : undefined;
  if (before && before.kind === 'word' && !SUBJECT_LEAD.has(before.norm)) return false;
  if (i - 1 > first && GENERIC_LEAD.has(tokens[i - 2].norm)) return false;
  const after = i + 1 < last ? tokens[i + 1] : undefined;
  if (!after || after.kind !== 'word') return tokens[i].norm.includes("'");
  return !ADVICE_AFTER_YOU.has(after.norm);
}

/**
 * The token of a summary opener in the sentence, or -1: "so" (after at most backchannel words) followed
 * by a statement ("So it's hard to say no", "Okay, so you've cut down").
 */
function summaryAt(tokens: Analysis['tokens'], first: number, last: number): number {
  for (let k = first; k < last; k++) {
    const t = tokens[k];
    if (t.kind !== 'word') continue;
    if (t.norm === 'so') {
      let j = k + 1;
      while (j < last && tokens[j].kind !== 'word') j++;
      return j < last && !SO_ASKS.has(tokens[j].norm) ? k : -1;
    }
    if (!BACKCHANNEL.has(t.norm)) return -1;
  }
  return -1;
}

/** Whether a bare "sorry" at token i apologises for the writer ("sorry I misunderstood", "sorry about that"). */
function isApology(tokens: Analysis['tokens'], i: number): boolean {
  const next = tokens[i + 1]?.norm;
  if (next === undefined) return false;
  if (APOLOGY_NEXT.has(next)) return true;
  return (next === 'about' || next === 'for') && APOLOGY_OBJECT.has(tokens[i + 2]?.norm ?? '');
}

/** Whether token i opens its sentence, after at most an interjection ("Oh, that's awful"). */
function openerAt(tokens: Analysis['tokens'], first: number, i: number): boolean {
  for (let k = first; k < i; k++) {
    const t = tokens[k];
    if (t.kind !== 'word') continue;
    if (!INTERJECTION.has(t.norm)) return false;
  }
  return true;
}

interface ReplyScan {
  markers: Marker[];
  /** 1 for a sentence that asks (holds a question mark). */
  question: number[];
  advice: number;
  adviceSpans: Span[];
  warm: number;
  cold: number;
  warmthSpans: Span[];
  contemptSpans: Span[];
}

/**
 * One pass over the reply: empathy phrases, valence words and the per-sentence facts the rules
 * need. Without evidence the warmth and contempt spans stay empty.
 */
function scanReply(a: Analysis, evidence: boolean): ReplyScan {
  const tokens = a.tokens;
  const n = a.sentences.length;
  // Plain arrays: a typed array over 64 bytes (a long reply) lives outside the heap, slow to allocate.
  const firstPerson: number[] = new Array<number>(n).fill(0);
  const secondPerson: number[] = new Array<number>(n).fill(0);
  const question: number[] = new Array<number>(n).fill(0);
  const advised: number[] = new Array<number>(n).fill(0);
  const youSubject: number[] = new Array<number>(n).fill(0);
  const concern: number[] = new Array<number>(n).fill(0);
  const intense: number[] = new Array<number>(n).fill(0);
  const feeling: number[] = new Array<number>(n).fill(0);
  const hits: LexiconHit[] = [];
  // Constructions wait for the whole sentence: in a question, a feeling put to the person explores it.
  const constructions: Marker[] = [];
  const scan: ReplyScan = { markers: [], question, advice: 0, adviceSpans: [], warm: 0, cold: 0, warmthSpans: [], contemptSpans: [] };
  // Each lexicon matches without overlaps of its own, so each keeps its own resume position.
  let phraseFrom = 0;
  let valenceFrom = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const info = wordInfo(t.word);
    if (!info) {
      if (t.kind === 'punctuation' && t.norm.includes('?')) question[t.sentence] = 1;
      continue;
    }
    if (info.person === 1 && isDisclosingI(tokens, i)) firstPerson[t.sentence]++;
    else if (info.person === 2) {
      secondPerson[t.sentence] = 1;
      if (!youSubject[t.sentence] && info.classes & SUBJECT_YOU) {
        const s = a.sentences[t.sentence];
        if (youSubjectAt(tokens, i, s.first, s.last)) youSubject[t.sentence] = i + 1;
      }
    }
    if (info.classes) {
      const s = a.sentences[t.sentence];
      if (info.classes & CONCERN && !concern[t.sentence]) concern[t.sentence] = i + 1;
      if (info.classes & (EMOTION | FEELING) && !feeling[t.sentence]) feeling[t.sentence] = i + 1;
      if (info.classes & INTENSIFIER && !intense[t.sentence]) {
        for (let k = i + 1; k < s.last && k <= i + 2; k++) {
          const c = wordInfo(tokens[k].word)?.classes ?? 0;
          if (c & (EMOTION | CONCERN)) {
            intense[t.sentence] = i + 1;
            break;
          }
        }
      }
      const c = constructionAt(tokens, i, s.first, s.last, info.classes);
      if (c) constructions.push({ mechanism: c.mechanism, construct: c.construct, sentence: t.sentence, start: t.start, end: tokens[c.end].end });
    }
    if (info.phrase && i >= phraseFrom) {
      const p = phraseAt(tokens, i, info.phrase);
      if (p) {
        if (p.category === 'advise') {
          advised[t.sentence] = 1;
          if (evidence) scan.adviceSpans.push(spanOf(a.text, t.start, tokens[i + p.parts.length - 1].end));
        }
        hits.push(hitOf(tokens, i, p));
        phraseFrom = i + p.parts.length;
      }
    }
    if (info.valence && i >= valenceFrom) {
      const p = phraseAt(tokens, i, info.valence);
      if (p) {
        valenceFrom = i + p.parts.length;
        if (p.category === 'warm') {
          scan.warm += p.weight;
          if (evidence) scan.warmthSpans.push(spanOf(a.text, t.start, tokens[valenceFrom - 1].end));
        } else {
          scan.cold += p.weight;
          if (evidence) scan.contemptSpans.push(spanOf(a.text, t.start, tokens[valenceFrom - 1].end));
        }
      }
    }
  }
  for (const c of constructions) if (c.mechanism !== 'ip' || !question[c.sentence]) scan.markers.push(c);
  const asked: number[] = new Array<number>(n).fill(0);
  for (const hit of hits) {
    const sentence = tokens[hit.token].sentence;
    if (hit.category === 'ex-ask') {
      if (!question[sentence] || advised[sentence]) continue;
      asked[sentence] = 1;
    } else if (hit.category === 'ip-lead' && hit.token !== a.sentences[sentence].first) continue;
    else if (hit.length === 1 && tokens[hit.token].norm === 'sorry' && isApology(tokens, hit.token)) continue;
    const marks = MARKS_OF[hit.category === 'er' && hit.weight >= 2 ? 'er-2' : hit.category];
    for (const [mechanism, construct] of marks) scan.markers.push({ mechanism, construct, sentence, start: hit.start, end: hit.end });
  }
  const marked: number[] = new Array<number>(n).fill(0);
  for (const m of scan.markers) marked[m.sentence] = 1;
  for (let k = 0; k < n; k++) {
    const s = a.sentences[k];
    // A bare command with no empathy marker in it ("Try restarting it.", "Talk to your mom.") advises;
    // "Hang in there" and "Take care" carry a marker and stay support.
    if (!advised[k] && !question[k] && !marked[k]) {
      const verb = commandAt(tokens, s.first, s.last);
      if (verb >= 0) {
        advised[k] = 1;
        if (evidence) scan.adviceSpans.push(spanOf(a.text, tokens[verb].start, tokens[verb].end));
      }
    }
    scan.advice += advised[k];
    // EPITOME interpretations are mostly shared experience ("I went through the same when I..."), so a
    // sentence that talks about the writer at some length is an IP marker even without a listed phrase.
    if (firstPerson[k] >= config.disclosureFirstPerson) scan.markers.push({ mechanism: 'ip', construct: 'shared', sentence: k, start: s.start, end: s.end });
    // A question about "you" explores the person even without a listed opener ("and your sister?").
    // A suggestion put as a question ("have you tried yoga?") gives advice; it does not explore.
    if (secondPerson[k] && question[k] && !asked[k] && !advised[k]) scan.markers.push({ mechanism: 'ex', construct: 'exploration', sentence: k, start: s.start, end: s.end });
    // A statement about the person restates their situation (what a counsellor's reflection does
    // even without a feeling word); a question about them explores instead, and advice is advice.
    if (youSubject[k] && !question[k] && !advised[k]) {
      const at = tokens[youSubject[k] - 1];
      scan.markers.push({ mechanism: null, construct: 'restatement', sentence: k, start: at.start, end: at.end });
    }
    const so = advised[k] ? -1 : summaryAt(tokens, s.first, s.last);
    if (so >= 0) scan.markers.push({ mechanism: null, construct: 'reflection', sentence: k, start: tokens[so].start, end: tokens[so].end });
    if (concern[k]) {
      const at = tokens[concern[k] - 1];
      scan.markers.push({ mechanism: null, construct: 'concern', sentence: k, start: at.start, end: at.end });
    }
    if (intense[k]) {
      const at = tokens[intense[k] - 1];
      scan.markers.push({ mechanism: null, construct: 'intensity', sentence: k, start: at.start, end: at.end });
    }
    // Naming a feeling (anyone's) in a statement: the labelling that reflective listening and
    // validation are built on; put as a question it explores instead.
    if (feeling[k] && !question[k]) {
      const at = tokens[feeling[k] - 1];
      scan.markers.push({ mechanism: null, construct: 'feeling', sentence: k, start: at.start, end: at.end });
    }
  }
  return scan;
}

/**
 * Finds the EPITOME mechanism markers of a reply and grades each mechanism: 0 no marker, 1 a generic
 * marker, 2 a marker in a sentence that shares a content stem with the incoming message.
 * @param a - the analyzed reply
 * @param incoming - the analyzed message being answered; without it no level exceeds 1
 * @param evidence - false to leave every span list empty (levels, counts, warmth and contempt are
 *   computed identically either way)
 * @returns levels, marker sentence counts, marker spans and the reply's warmth and contempt
 */
export function empathyFeatures(a: Analysis, incoming?: Analysis, evidence = true): EmpathyFeatures {
  const levels: Record<Mechanism, MechanismLevel> = { er: 0, ip: 0, ex: 0 };
  const spans: Record<Mechanism, Span[]> = { er: [], ip: [], ex: [] };
  const seen: Record<Mechanism, Set<number>> = { er: new Set(), ip: new Set(), ex: new Set() };
  const n = a.sentences.length;
  // Per construct, a bit per sentence would do; sentence counts are small, so plain marks per construct.
  const marked: Record<Construct, number[]> = emptyCounts(() => new Array<number>(n).fill(0));
  const constructSpans: Record<Construct, Span[]> = emptyCounts(() => []);
  const constructs: Record<Construct, number> = emptyCounts(() => 0);
  // Per sentence: 0 not checked yet, 1 generic, 2 shares a content stem with the incoming message.
  const specific: number[] = new Array<number>(n).fill(0);
  const specificPositive: number[] = new Array<number>(n).fill(0);
  let stems: Set<string> | undefined;
  const scan = scanReply(a, evidence);
  for (const m of scan.markers) {
    if (specific[m.sentence] === 0) {
      if (incoming && !stems) stems = incoming.contentStems;
      specific[m.sentence] = stems && sharesContent(a, a.sentences[m.sentence], stems) ? 2 : 1;
    }
    if (!marked[m.construct][m.sentence]) {
      marked[m.construct][m.sentence] = 1;
      constructs[m.construct]++;
    }
    if (evidence) constructSpans[m.construct].push(spanOf(a.text, m.start, m.end));
    if (m.construct !== 'dismissal' && m.construct !== 'phatic' && specific[m.sentence] === 2) specificPositive[m.sentence] = 1;
    const mech = m.mechanism;
    if (mech === null) continue;
    const shared = specific[m.sentence] === 2;
    if (shared) levels[mech] = 2;
    else if (levels[mech] === 0) levels[mech] = 1;
    seen[mech].add(m.sentence);
    if (evidence) spans[mech].push(spanOf(a.text, m.start, m.end));
  }
  if (evidence) {
    for (const mech of MECHANISMS) spans[mech].sort((x, y) => x.start - y.start || x.end - y.end);
    for (const c of CONSTRUCTS) constructSpans[c].sort((x, y) => x.start - y.start || x.end - y.end);
  }
  let specificCount = 0;
  for (const v of specificPositive) specificCount += v;
  return {
    constructs,
    specific: specificCount,
    echo: incoming ? echoOf(a, incoming.contentStems, scan.question) : 0,
    constructSpans,
    levels,
    sentences: { er: seen.er.size, ip: seen.ip.size, ex: seen.ex.size },
    spans,
    warmth: Math.tanh(scan.warm / config.valenceScale),
    contempt: Math.tanh(scan.cold / config.valenceScale),
    warmthSpans: scan.warmthSpans,
    contemptSpans: scan.contemptSpans,
    advice: scan.advice,
    adviceSpans: scan.adviceSpans,
  };
}

/**
 * The emotional load L of a message: distress and negative-emotion words (acute ones count double,
 * negated ones not at all) plus alarmed punctuation, saturating as 1 - exp(-sum / scale).
 * @param incoming - the analyzed message being answered
 * @returns L in 0..1; 0 for a neutral request such as a deploy question
 */
export function emotionalLoad(incoming: Analysis): number {
  const tokens = incoming.tokens;
  let sum = 0;
  for (let i = 0; i < tokens.length; i++) {
    const starts = DISTRESS.get(tokens[i].norm);
    const p = starts && phraseAt(tokens, i, starts);
    if (!p) continue;
    const p1 = i > 0 ? tokens[i - 1].norm : '';
    const p2 = i > 1 ? tokens[i - 2].norm : '';
    i += p.parts.length - 1;
    // "can't stop crying" stays distress; only a negator right before (or one intensifier away) cancels.
    if (NEGATORS.has(p1) || (NEGATORS.has(p2) && BRIDGE.has(p1))) continue;
    sum += p.weight;
  }
  // "!!" or "?!" reads as alarm only next to something distressing; "great news!!" is not worry.
  if (sum > 0) {
    let runs = 0;
    let singles = 0;
    for (const t of tokens) {
      if (t.kind !== 'punctuation') continue;
      if (t.norm === '!') singles++;
      else if (t.norm.length > 1 && /^[!?]+$/.test(t.norm)) runs++;
    }
    sum += Math.min(config.load.maxPunctuation, (runs + (singles > 1 ? 1 : 0)) * config.load.punctuationWeight);
  }
  return 1 - Math.exp(-sum / config.load.scale);
}

/** Features that lower the value; the weights file stores every weight as a magnitude. */
const NEGATIVE = new Set(['dismissal', 'phatic', 'contempt', 'advice']);
const FEATURE_NAME: Record<string, string> = { feeling: 'names-a-feeling', advice: 'advice-giving', specific: 'specific-acknowledgement', echo: 'echoes-their-words' };
/** The fitted features in the weights file's order, with their weights (0 for a feature the fit left out). */
const TERMS = Object.entries(MODEL as Record<string, number>);

/** One fitted term of a reply: its raw value (as fitted: log of 1 + sentences, or contempt) and its spans. */
function termsOf(f: EmpathyFeatures): { feature: string; count: number; x: number; spans: Span[] }[] {
  const out: { feature: string; count: number; x: number; spans: Span[] }[] = [];
  for (const [feature] of TERMS) {
    if (feature === 'specific') out.push({ feature, count: f.specific, x: Math.log1p(f.specific), spans: [] });
    else if (feature === 'echo') out.push({ feature, count: f.echo, x: Math.log1p(f.echo), spans: [] });
    else if (feature === 'contempt') out.push({ feature, count: f.contempt, x: f.contempt, spans: f.contemptSpans });
    else if (feature === 'advice') out.push({ feature, count: f.advice, x: Math.log1p(f.advice), spans: f.adviceSpans });
    else {
      const c = feature as Construct;
      out.push({ feature, count: f.constructs[c], x: Math.log1p(f.constructs[c]), spans: f.constructSpans[c] });
    }
  }
  return out;
}

/**
 * Measures empathy as people recognise it across communities, from constructions rather than a
 * word list mined from one of them (see {@link Construct}): emotional reaction, reflection,
 * perspective-taking, validation, shared experience, restatement, concern and felt intensity raise
 * it, more when tied to what the person said; dismissal, small talk, contempt and premature advice
 * lower it. Each term is its weight times log(1 + sentences carrying it): the first counts most.
 * The weights were fitted on four rated sources at once with leave-one-source-out selection
 * (scripts/fit/fit-empathy.ts; weights/empathy.json records which). The value is the strength over
 * that of the anchor reply (a reaction and a reflection, tied to their message), saturating at 1,
 * then calibrated onto the profile scale.
 * @param a - the analyzed reply
 * @param incoming - the analyzed message being answered; it sets specificity, the mechanism levels and L
 * @param evidence - false when only the value is needed: contributions come back empty (value,
 *   mechanisms and load are computed identically either way)
 * @returns value in 0..1, mechanism levels, emotional load of the incoming message and contributions
 */
export function measureEmpathy(a: Analysis, incoming?: Analysis, evidence = true): EmpathyMeasure {
  const f = empathyFeatures(a, incoming, evidence);
  let total = 0;
  const terms = termsOf(f);
  const strengths = terms.map((t) => {
    const w = (MODEL as Record<string, number>)[t.feature];
    const strength = (NEGATIVE.has(t.feature) ? -w : w) * t.x;
    total += strength;
    return strength;
  });
  // Past the anchor the value saturates at 1; dividing by the larger of the two keeps the deltas summing to the value.
  const scale = Math.max(FULL_STRENGTH, total);
  // The calibration maps the strength scale onto the profile scale, where a reply with no marker still
  // reads as a little warm (see weights/empathy.json).
  const stretch = 1 / (CALIBRATION.one - CALIBRATION.zero);
  const value = clamp((total / scale - CALIBRATION.zero) * stretch, 0, 1);
  const contributions: Contribution[] = [];
  if (evidence) {
    terms.forEach((t, i) => {
      if (strengths[i] === 0) return;
      const w = (MODEL as Record<string, number>)[t.feature];
      contributions.push({ feature: FEATURE_NAME[t.feature] ?? t.feature, value: t.count, weight: NEGATIVE.has(t.feature) ? -w : w, delta: (stretch * strengths[i]) / scale, spans: t.spans });
    });
    contributions.sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || (x.feature < y.feature ? -1 : x.feature > y.feature ? 1 : 0));
  }
  return {
    value,
    contributions,
    mechanisms: { er: f.levels.er, ip: f.levels.ip, ex: f.levels.ex },
    emotionalLoad: incoming ? emotionalLoad(incoming) : 0,
    constructs: { ...f.constructs, specific: f.specific },
  };
}
