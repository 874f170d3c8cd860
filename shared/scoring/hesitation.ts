import type { Analysis, Token } from './types';
import type { Contribution, DimensionMeasure } from './measure-types';
import { compileLexicon, matchLexicon } from './lexicon';
import { spanOf } from './span';
import {
  HESITATION_PHRASES,
  KIND_DETERMINERS,
  NON_EPISTEMIC_NEXT,
  NON_EPISTEMIC_POSSIBLE_BEFORE,
  NUMBER_WORDS,
  POLITE_AFTER_MODAL,
  POLITE_AFTER_WOULD_BE,
  REDUPLICATIONS,
  STANCE_BRIDGE,
  STANCE_SUBJECTS,
  TAG_QUESTION_PHRASES,
  WORD_PREFIXES,
} from './lexicons/hesitation';
import config from './weights/hesitation.json';

/** The hesitation features, each scored as its own contribution. */
export type HesitationFeature = keyof typeof config.featureWeights;

interface Cue {
  feature: HesitationFeature;
  /** Strength of this one cue before the feature weight (0.5 for ambiguous forms). */
  strength: number;
  start: number;
  end: number;
}

const PHRASES = compileLexicon(HESITATION_PHRASES);
// Tag questions are looked up only between a comma and a question mark, as whole token sequences.
const TAGS = new Set([...compileLexicon(TAG_QUESTION_PHRASES).byFirst.values()].flatMap((list) => list.map((p) => p.parts.join(' '))));
const LONGEST_TAG = Math.max(...[...TAGS].map((t) => t.split(' ').length));
const NON_EPISTEMIC = new Set(NON_EPISTEMIC_NEXT);
const SUBJECTS = new Set(STANCE_SUBJECTS);
const BRIDGE = new Set(STANCE_BRIDGE);
const DETERMINERS = new Set(KIND_DETERMINERS);
const NUMBERS = new Set(NUMBER_WORDS);
const NOT_LIKELIHOOD = new Set(NON_EPISTEMIC_POSSIBLE_BEFORE);
const POLITE = new Set(POLITE_AFTER_MODAL);
const POLITE_BE = new Set(POLITE_AFTER_WOULD_BE);
const REDUPLICATED = new Set(REDUPLICATIONS);
const PREFIXES = new Set(WORD_PREFIXES);
const FEATURE_WEIGHTS: Record<HesitationFeature, number> = config.featureWeights;
/** The value of a reply with no cue at all: the prior rate alone. */
const BASE_VALUE = 1 - Math.exp(-config.priorRate / config.rateScale);
const FEATURES = Object.keys(FEATURE_WEIGHTS).sort() as HesitationFeature[];

// Typed pause fillers: um, umm, uh, uhh, uhm, hmm, hm, erm, ehm, er (only before a pause, see below).
const PAUSE_FILLER = /^(?:u+m+|u+h+m*|h+m+|e+r+m+|e+h+m+|a+h+m+)$/;
const HESITANT_ER = /^(?:er+|e+h+)$/;
const ELLIPSIS = /^(?:\.{2,}|…+)$/;
const WORD_ONLY = /^[a-z']+$/;
const DASH = /^(?:-{1,2}|—|–)$/;
const STARTS_CLAUSE_AFTER_WAIT = new Set(['no', 'actually', 'what', 'hold', 'maybe', 'sorry', 'hmm', 'um', 'never', 'scratch']);
const NOT_REPAIR_BEFORE_WAIT = new Set(['to', "n't", 'cant', 'please', 'will', "'ll", 'could', 'can', 'just', 'and', 'or', 'gonna', 'must', 'should', 'pls', 'plz']);
const EDGE_BEFORE_ACTUALLY = new Set([',', 'no', 'oh', 'wait', 'well', 'or', 'hmm', 'um', 'uh', 'erm', 'nope', 'ah', 'scratch', 'that']);
const NOT_FILLER_BEFORE_YOU_KNOW = new Set(['do', 'did', 'does', 'if', 'as', "n't", 'what', 'how', 'let', "'d", 'would', 'will', 'should', 'when', 'because', 'cause', 'to', 'that', 'all']);

function isPunct(t: Token | undefined): boolean {
  return t !== undefined && t.kind === 'punctuation';
}

function isNumberLike(t: Token | undefined): boolean {
  return t !== undefined && (t.kind === 'number' || NUMBERS.has(t.norm) || /^\d/.test(t.norm));
}

/** A stance verb counts when the writer is its subject: "I (really) think", "we'd guess", "I'm thinking". */
function hasStanceSubject(tokens: Token[], at: number, first: number): boolean {
  for (let k = at - 1, steps = 0; k >= first && steps < 4; k--, steps++) {
    const norm = tokens[k].norm;
    if (SUBJECTS.has(norm)) return true;
    if (!BRIDGE.has(norm)) return false;
  }
  return false;
}

function isCapitalisedName(a: Analysis, t: Token, at: number): boolean {
  return t.text !== t.norm && t.norm !== 'i' && at !== a.sentences[t.sentence]?.first;
}

function acceptPhrase(a: Analysis, category: string, at: number, length: number): number {
  const tokens = a.tokens;
  const t = tokens[at];
  const sentence = a.sentences[t.sentence];
  const first = sentence ? sentence.first : 0;
  const prev = at > first ? tokens[at - 1] : undefined;
  const next = tokens[at + length] as Token | undefined;
  const nextInSentence = next && next.sentence === t.sentence ? next : undefined;
  switch (category) {
    case 'hedge-may':
      // "May 2005", "in May": the month is capitalised mid-sentence or followed by a date. "May I" asks leave.
      if (nextInSentence?.norm === 'i' || nextInSentence?.norm === 'we') return 0;
      return t.text === 'May' && (at !== first || isNumberLike(nextInSentence)) ? 0 : 1;
    case 'hedge-could': {
      // A question opened by the modal ("Could you...", "Would eight suit you?") asks; it does not doubt.
      if (at === first) return 0;
      const n = nextInSentence?.norm;
      if (n === 'be' || n === 'have' || n === "'ve" || n === 'possibly' || n === 'potentially' || n === 'well') return 1;
      return n !== undefined && POLITE.has(n) ? 0 : 0.5;
    }
    case 'hedge-would': {
      if (at === first) return 0;
      const n = nextInSentence?.norm;
      if (n === 'be') return POLITE_BE.has(tokens[at + length + 1]?.norm ?? '') ? 0 : 1;
      return n !== undefined && POLITE.has(n) ? 0 : 1;
    }
    case 'hedge-verb':
      if (nextInSentence && NON_EPISTEMIC.has(nextInSentence.norm)) return 0;
      return hasStanceSubject(tokens, at, first) ? 1 : 0;
    case 'hedge-approx':
      return isNumberLike(nextInSentence) ? 1 : 0;
    case 'hedge-possible':
      return (prev && NOT_LIKELIHOOD.has(prev.norm)) || nextInSentence?.norm === 'to' ? 0 : 1;
    case 'hedge-kind':
      return prev && DETERMINERS.has(prev.norm) ? 0 : 1;
    case 'repair-wait':
      if (prev && (NOT_REPAIR_BEFORE_WAIT.has(prev.norm) || !isPunct(prev))) return 0;
      return !nextInSentence || isPunct(nextInSentence) || STARTS_CLAUSE_AFTER_WAIT.has(nextInSentence.norm) ? 1 : 0;
    case 'repair-actually':
      // Sentence-initial or after a correction cue; mid-clause "actually" is a booster, not a repair.
      return !prev || EDGE_BEFORE_ACTUALLY.has(prev.norm) ? 1 : 0;
    case 'filler-discourse':
      if (t.norm === 'well') return !prev && nextInSentence !== undefined && isPunct(nextInSentence) && !nextInSentence.norm.startsWith('?') ? 1 : 0;
      if (prev && NOT_FILLER_BEFORE_YOU_KNOW.has(prev.norm)) return 0;
      if (nextInSentence && nextInSentence.norm.startsWith('?')) return 0;
      return !nextInSentence || isPunct(nextInSentence) || isPunct(prev) ? 1 : 0;
    default:
      return 1;
  }
}

function featureOf(category: string): HesitationFeature {
  if (category.startsWith('repair')) return 'self-repair';
  if (category === 'filler-discourse') return 'discourse-filler';
  if (category === 'soften') return 'softening';
  return 'hedge';
}

function collectCues(a: Analysis): Cue[] {
  const cues: Cue[] = [];
  const tokens = a.tokens;

  for (const hit of matchLexicon(a, PHRASES)) {
    const accepted = acceptPhrase(a, hit.category, hit.token, hit.length);
    if (accepted > 0) cues.push({ feature: featureOf(hit.category), strength: accepted * hit.weight, start: hit.start, end: hit.end });
  }

  for (let q = 1; q < tokens.length; q++) {
    if (tokens[q].norm.charCodeAt(0) !== 63 /* ? */) continue;
    for (let c = q - 2; c >= 0 && c >= q - 1 - LONGEST_TAG; c--) {
      if (tokens[c].norm !== ',') continue;
      let words = tokens[c + 1].norm;
      for (let k = c + 2; k < q; k++) words += ' ' + tokens[k].norm;
      if (TAGS.has(words)) cues.push({ feature: 'tag-question', strength: 1, start: tokens[c].start, end: tokens[q].end });
      break;
    }
  }

  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const next = tokens[i + 1] as Token | undefined;
    if (t.kind === 'word') {
      const c0 = t.norm.charCodeAt(0);
      // Cheap first-letter gate (u, h, e, a) before the regexes; most tokens are not fillers.
      const maybeFiller = t.norm.length <= 8 && (c0 === 117 || c0 === 104 || c0 === 101 || c0 === 97);
      if (maybeFiller && (PAUSE_FILLER.test(t.norm) || (HESITANT_ER.test(t.norm) && (!next || isPunct(next))))) {
        cues.push({ feature: 'filler', strength: 1, start: t.start, end: t.end });
        continue;
      }
      if (!next) continue;
      // Restart: "I- I", "w-what", "the- the". The cut-off part sits flush against the dash.
      const after = tokens[i + 2] as Token | undefined;
      if (next.start === t.end && DASH.test(next.norm) && after?.kind === 'word' && t.norm.length <= 4 && after.norm.startsWith(t.norm)) {
        const spaced = after.start > next.end;
        if (spaced || (!PREFIXES.has(t.norm) && t.norm.length <= 2)) {
          cues.push({ feature: 'restart', strength: 1, start: t.start, end: after.end });
          i += 2;
          continue;
        }
      }
      // Restart by repetition: "I I", "the the" (with normal reduplication left alone).
      // Names such as "Cao Cao" repeat by design, so capitalised pairs count only as "I I" or at a sentence start.
      if (next.norm === t.norm && next.kind === 'word' && next.sentence === t.sentence && WORD_ONLY.test(t.norm) && !REDUPLICATED.has(t.norm) && !isCapitalisedName(a, t, i)) {
        cues.push({ feature: 'restart', strength: 1, start: t.start, end: next.end });
        i += 1;
      }
      continue;
    }
    if (t.kind === 'punctuation') {
      if (ELLIPSIS.test(t.norm)) {
        cues.push({ feature: 'trailing-off', strength: 1, start: t.start, end: t.end });
        continue;
      }
      // A dash that ends a sentence after a word is a thought left hanging ("I was going to—").
      const sentence = a.sentences[t.sentence];
      if (DASH.test(t.norm) && sentence && i === sentence.last - 1 && i > sentence.first && tokens[i - 1].kind === 'word') {
        cues.push({ feature: 'trailing-off', strength: 1, start: t.start, end: t.end });
      }
      continue;
    }
    if (t.kind === 'symbol' && next && next.start === t.end) {
      // Chat corrections: "*word" after a space (not *emphasis*), and "~~struck~~".
      if (t.norm === '*' && next.kind === 'word' && (i === 0 || tokens[i - 1].end < t.start)) {
        const closing = tokens[i + 2] as Token | undefined;
        if (!(closing && closing.norm === '*' && closing.start === next.end)) cues.push({ feature: 'self-repair', strength: 1, start: t.start, end: next.end });
      } else if (t.norm === '~' && next.norm === '~' && tokens[i + 2]?.kind === 'word') {
        let close = i + 2;
        while (close + 1 < tokens.length && !(tokens[close].norm === '~' && tokens[close + 1].norm === '~')) close++;
        const end = close + 1 < tokens.length ? tokens[close + 1].end : tokens[tokens.length - 1].end;
        cues.push({ feature: 'self-repair', strength: 1, start: t.start, end });
        i = close + 1;
      }
    }
  }
  return cues;
}

/**
 * Measures hesitation: a weighted rate per 100 words of hedges, softening (politeness mitigation:
 * "could you", "thank you", "I understand", "together"), pause fillers, self-repairs,
 * trailing-off, restarts, tag questions and discourse fillers, mapped to 0..1 by 1 - exp(-r / scale).
 * Hedges count only when epistemic ("I think it's X", not "think about X").
 * @param a - the analyzed reply
 * @param evidence - false when only the value is needed: contributions come back empty (the
 *   value is computed identically either way)
 * @returns the value in 0..1 and one contribution per feature that fired, with its spans
 */
export function measureHesitation(a: Analysis, evidence = true): DimensionMeasure {
  const cues = collectCues(a);
  if (cues.length === 0) return { value: BASE_VALUE, contributions: [] };
  const per100 = 100 / Math.max(1, a.words);
  const sums = new Map<HesitationFeature, number>();
  let rate = 0;
  for (const cue of cues) {
    sums.set(cue.feature, (sums.get(cue.feature) ?? 0) + cue.strength);
    rate += cue.strength * FEATURE_WEIGHTS[cue.feature] * per100;
  }
  const value = 1 - Math.exp(-(rate + config.priorRate) / config.rateScale);
  const contributions: Contribution[] = [];
  if (!evidence) return { value, contributions };
  for (const feature of FEATURES) {
    const sum = sums.get(feature);
    if (sum === undefined) continue;
    const weight = FEATURE_WEIGHTS[feature];
    // What the cues add above the prior is split in proportion to each feature's share of the rate,
    // so the base value plus the deltas is the value.
    const delta = rate > 0 ? ((value - BASE_VALUE) * sum * weight * per100) / rate : 0;
    const spans = cues
      .filter((c) => c.feature === feature)
      .sort((x, y) => x.start - y.start || x.end - y.end)
      .map((c) => spanOf(a.text, c.start, c.end));
    contributions.push({ feature, value: sum, weight, delta, spans });
  }
  contributions.sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || (x.feature < y.feature ? -1 : x.feature > y.feature ? 1 : 0));
  return { value, contributions };
}
