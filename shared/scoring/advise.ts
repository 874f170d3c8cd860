import type { Profile } from '../profiles/profile';
import { DIMENSION_PHRASES, EMPATHY_UP_PHRASES, FORMALITY_DOWN_CONTRACTED, GENERIC_SIGNAL_PHRASE, SIGNAL_PHRASES, type Direction, type PhraseSet, type Situation, type Strength } from './advice-phrases';
import { round } from './math';
import type { DimensionId, EmpathyMeasure, SignalHit } from './measure-types';
import type { Advice, DimensionResult, RewriteStep, TimingResult } from './result-types';
import { DIMENSIONS, machinePenalty, signalPenalty } from './style-fit';
import type { Analysis, Span } from './types';

/** What advice is built from: one profile's unrounded verdict. */
export interface AdviceInput {
  profile: Profile;
  reply: Analysis;
  dimensions: Record<DimensionId, DimensionResult>;
  timing?: TimingResult;
  signals: SignalHit[];
  styleFit: number;
  penalty: number;
  deep: boolean;
  /** Which EPITOME mechanisms the reply already shows. */
  mechanisms: EmpathyMeasure['mechanisms'];
  /** Which empathy constructs the reply already shows (sentence counts): empathy advice asks for a missing one. */
  constructs?: EmpathyMeasure['constructs'];
  /** A role-play asker voices their own feelings: advice on answering feelings does not fit the turn. */
  role?: 'helper' | 'asker';
  /** Emotional load of the incoming message, undefined without one: picks the examples' situation. */
  emotionalLoad?: number;
}

/** Incoming emotional load from which a conversation counts as emotional (grief, distress) for examples. */
export const EMOTIONAL_LOAD = 0.3;
/** Without an incoming message, a profile this warm implies an emotional conversation. */
const WARM_PROFILE = 0.8;

/**
 * The contributions whose spans may stand as evidence for a dimension's advice: the constructions
 * the action names. Directness "down" asks to soften bare instructions and blunt questions, so its
 * evidence is those, never "no" in "Oh no", a lone "?" or "honestly". Dimensions not
 * listed take every contribution that pushed the measure away from the target.
 */
const EVIDENCE_FEATURES: Partial<Record<`${DimensionId}:${Direction}`, ReadonlySet<string>>> = {
  'directness:down': new Set(['imperative', 'pleaseStart', 'directStart', 'whStart', 'why', 'secondPersonStart', 'youQuestion', 'negativeQuestion']),
};

const MAX_STEPS = 5;
const MAX_SPANS = 5;
const MAX_BANNED = 6;
// Signals whose offending phrases are worth naming in a ban list.
const BANNABLE = new Set(['assistant-boilerplate', 'signposting', 'excess-vocab', 'ai-self-disclosure', 'generic-caveat']);

function directionOf(d: DimensionResult): Direction {
  return d.delta < 0 ? 'up' : 'down';
}

// Judged on the values the result shows (3 decimals): a dimension shown at |delta| = tolerance is
// within its band, and gets no advice.
function isOff(d: DimensionResult): boolean {
  return Math.abs(round(d.delta)) > round(d.tolerance);
}

/**
 * How hard advice on a dimension may push for this profile: fully toward the side the profile's
 * own target is on, mildly (trimming an excess) toward the other side.
 * @param target - the profile's target (before any situational adjustment)
 * @param dir - the direction the measure must move
 * @returns the strength
 */
export function strengthFor(target: number, dir: Direction): Strength {
  return (dir === 'up') === target >= 0.5 ? 'full' : 'mild';
}

/**
 * The situation the examples must fit: emotional when the incoming message carries emotional
 * load, or, without one, when the profile is a warm, supportive one.
 * @param input - the advice input
 * @returns the situation
 */
export function situationOf(input: Pick<AdviceInput, 'emotionalLoad' | 'profile'>): Situation {
  if (input.emotionalLoad !== undefined) return input.emotionalLoad >= EMOTIONAL_LOAD ? 'emotional' : 'practical';
  return input.profile.targets.empathy >= WARM_PROFILE ? 'emotional' : 'practical';
}

// A contraction in the reply ("I'm", "don't", "it's"): formality advice must not ask for what it already does.
const CONTRACTION = /[A-Za-z](?:'|\u2019)(?:m|s|re|ve|ll|d|t)\b/i;

/** Whether a sentence of the reply states something (does not end as a question): "hedge a claim" needs one. */
function hasStatement(reply: Analysis): boolean {
  const asks = new Set<number>();
  for (const t of reply.tokens) if (t.kind === 'punctuation' && t.norm.includes('?')) asks.add(t.sentence);
  return reply.sentences.some((_, k) => !asks.has(k));
}

/**
 * Whether advice on a dimension fits this reply and this writer at all: an asker voices their own
 * feelings (no advice on answering someone's), and a reply with no statement has no claim to hedge.
 * @param input - the advice input
 * @param dim - the dimension
 * @param d - its verdict
 * @returns false when any advice on it would not fit
 */
export function adviceFits(input: Pick<AdviceInput, 'role' | 'reply'>, dim: DimensionId, d: DimensionResult): boolean {
  if (dim === 'empathy' && input.role === 'asker') return false;
  if (dim === 'hesitation' && directionOf(d) === 'up' && !hasStatement(input.reply)) return false;
  return true;
}

/**
 * The phrase for a dimension outside its band: by direction and strength; for empathy to raise, by
 * the first rewarded construct the reply lacks (a reply that already says sorry is asked to reflect,
 * one that reflects is never asked to "reflect back what they told you"); for formality to lower, without
 * "contractions always" when the reply already contracts.
 */
export function dimensionPhrase(input: Pick<AdviceInput, 'profile' | 'mechanisms' | 'constructs' | 'reply'>, dim: DimensionId, d: DimensionResult): PhraseSet {
  const dir = directionOf(d);
  const strength = strengthFor(input.profile.targets[dim], dir);
  if (dim === 'formality' && dir === 'down' && CONTRACTION.test(input.reply.text)) return FORMALITY_DOWN_CONTRACTED[strength];
  if (dim !== 'empathy' || dir === 'down') return DIMENSION_PHRASES[dim][dir][strength];
  const c = input.constructs;
  const m = input.mechanisms;
  const reacts = c ? (c.reaction ?? 0) + (c.support ?? 0) + (c.concern ?? 0) > 0 : m.er > 0;
  const reflects = c ? (c.reflection ?? 0) + (c.restatement ?? 0) + (c.validation ?? 0) > 0 : m.ip > 0;
  // "Acknowledge how they feel" is what a reflection already does: a reflecting reply is asked for its own reaction instead.
  if (!reacts && reflects) return EMPATHY_UP_PHRASES.reaction;
  if (!reacts) return strength === 'full' ? EMPATHY_UP_PHRASES.er : DIMENSION_PHRASES.empathy.up.mild;
  if (!reflects) return EMPATHY_UP_PHRASES.ip;
  if (c ? (c.specific ?? 0) === 0 : m.er < 2 && m.ip < 2) return EMPATHY_UP_PHRASES.specific;
  return EMPATHY_UP_PHRASES.perspective;
}

function signalPhrase(id: string) {
  return SIGNAL_PHRASES[id] ?? GENERIC_SIGNAL_PHRASE;
}

function bannedPhrases(signals: readonly SignalHit[]): string[] {
  const seen = new Set<string>();
  for (const s of signals) {
    if (!BANNABLE.has(s.id)) continue;
    for (const span of s.spans) {
      const phrase = span.text.trim().replace(/\s+/g, ' ');
      if (phrase && phrase.length <= 60) seen.add(phrase);
    }
  }
  return [...seen].slice(0, MAX_BANNED);
}

/**
 * The text to add to the agent's system prompt: one sentence per dimension outside its band, one
 * per machine signal kind, a ban list of the machine phrases actually found and a length line.
 * Deterministic; never tells the agent to claim to be human or to deny being an AI.
 */
function promptAddition(input: AdviceInput): string {
  const lines: string[] = [];
  for (const dim of DIMENSIONS) {
    const d = input.dimensions[dim];
    if (isOff(d) && adviceFits(input, dim, d)) lines.push(dimensionPhrase(input, dim, d).prompt);
  }
  const kinds = new Set<string>();
  for (const s of input.signals) {
    const p = signalPhrase(s.id).prompt;
    if (p && !kinds.has(s.id)) {
      kinds.add(s.id);
      lines.push(p);
    }
  }
  const banned = bannedPhrases(input.signals);
  if (banned.length) lines.push(`Never write: ${banned.map((b) => `"${b}"`).join(', ')}.`);
  const limit = Math.round(input.profile.typicalWords * 1.5);
  if (input.reply.words > limit) lines.push(`Keep replies usually under ${limit} words.`);
  if (lines.length === 0) return `Keep this voice (${input.profile.name.toLowerCase()}): ${input.profile.description}`;
  return lines.join(' ');
}

function dimensionSpans(dim: DimensionId, d: DimensionResult): Span[] {
  const dir = directionOf(d);
  const only = EVIDENCE_FEATURES[`${dim}:${dir}`];
  const spans: Span[] = [];
  // Evidence is what pushed the measure away from the target, limited to what the action names.
  for (const c of d.contributions ?? []) {
    if (only && !only.has(c.feature)) continue;
    if ((dir === 'down' && c.delta > 0) || (dir === 'up' && c.delta < 0)) spans.push(...c.spans);
    if (spans.length >= MAX_SPANS) break;
  }
  return spans.slice(0, MAX_SPANS);
}


function rewriteSteps(input: AdviceInput): RewriteStep[] {
  const steps: (RewriteStep & { hard: boolean })[] = [];
  const keep = 1 - input.penalty;
  const situation = situationOf(input);
  for (const dim of DIMENSIONS) {
    const d = input.dimensions[dim];
    if (!isOff(d) || d.fit >= 1 || !adviceFits(input, dim, d)) continue;
    const phrase = dimensionPhrase(input, dim, d);
    steps.push({
      hard: false,
      priority: 0,
      target: dim,
      kind: 'dimension',
      action: phrase.action,
      expected_gain: round(100 * d.weight * (1 - d.fit) * keep, 1),
      spans: dimensionSpans(dim, d),
      example: phrase.example[situation],
    });
  }
  const t = input.timing;
  if (t && t.fit < 1) {
    steps.push({
      hard: t.superhuman,
      priority: 0,
      target: 'timing',
      kind: 'timing',
      action: `send after about ${round(t.expected, 0)} s (plausible window ${round(t.window[0], 0)}-${round(t.window[1], 0)} s) instead of ${round(t.measured, 1)} s`,
      expected_gain: round(100 * t.weight * (1 - t.fit) * keep, 1),
      spans: [],
      example: 'let the orchestrator hold the reply; timing is not a prompt matter',
    });
  }
  const all = input.signals.map(signalPenalty);
  let logKeep = 0;
  for (const p of all) logKeep += -Math.log(Math.max(1e-9, 1 - p));
  for (let i = 0; i < input.signals.length; i++) {
    const s = input.signals[i];
    if (s.id === 'superhuman-latency') continue; // the timing step covers it
    const without = machinePenalty(all.filter((_, j) => j !== i));
    // Under the penalty cap, removing one of several tells alone changes nothing, yet each must go:
    // the gain is then the tell's share of the capped penalty (its share of -log(1 - P)).
    const share = logKeep > 0 ? (input.penalty * -Math.log(Math.max(1e-9, 1 - all[i]))) / logKeep : 0;
    const phrase = signalPhrase(s.id);
    steps.push({
      hard: s.hardFail,
      priority: 0,
      target: s.id,
      kind: 'signal',
      action: phrase.action,
      expected_gain: round(100 * input.styleFit * Math.max(input.penalty - without, share), 1),
      spans: s.spans.slice(0, MAX_SPANS),
      example: phrase.example,
    });
  }
  // A step that gains nothing is not worth an operator's time (no "[+0]" steps).
  const worth = steps.filter((s) => s.expected_gain > 0);
  worth.sort((a, b) => Number(b.hard) - Number(a.hard) || b.expected_gain - a.expected_gain || (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
  // Field by field (same key order as the steps above): object rest and spread cost ~0.3 us each.
  return worth.slice(0, MAX_STEPS).map((s, i) => ({
    priority: i + 1,
    target: s.target,
    kind: s.kind,
    action: s.action,
    expected_gain: s.expected_gain,
    spans: s.spans,
    example: s.example,
  }));
}

function improvementLine(input: AdviceInput, steps: RewriteStep[]): string {
  const first = steps[0];
  if (!first) {
    return `Already reads like a ${input.profile.name.toLowerCase()}; keep this voice.`;
  }
  const where = first.spans[0] ? ` (starting at "${first.spans[0].text.slice(0, 40)}")` : '';
  return `Next step: ${first.action}${where}.`;
}

/**
 * Builds the advice for one profile's verdict: the system-prompt addition, one improvement and,
 * for the deep tier, at most five rewrite steps (hard fails first, then by expected gain).
 * @param input - the verdict and the analyzed reply
 * @returns advice
 */
export function advise(input: AdviceInput): Advice {
  const steps = rewriteSteps(input);
  const advice: Advice = {
    suggested_prompt_addition: promptAddition(input),
    improvement: improvementLine(input, steps),
  };
  if (input.timing) advice.suggested_delay_seconds = { expected: round(input.timing.expected, 1), window: [round(input.timing.window[0], 1), round(input.timing.window[1], 1)] };
  if (input.deep) advice.rewrite_guidance = steps;
  return advice;
}
