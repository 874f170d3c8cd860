import type { Profile } from '../profiles/profile';
import { DIMENSION_PHRASES, GENERIC_SIGNAL_PHRASE, SIGNAL_PHRASES, type Direction } from './advice-phrases';
import { round } from './math';
import type { DimensionId, SignalHit } from './measure-types';
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
}

const MAX_STEPS = 5;
const MAX_SPANS = 5;
const MAX_BANNED = 6;
// Signals whose offending phrases are worth naming in a ban list.
const BANNABLE = new Set(['assistant-boilerplate', 'signposting', 'excess-vocab', 'ai-self-disclosure', 'generic-caveat']);

function directionOf(d: DimensionResult): Direction {
  return d.delta < 0 ? 'up' : 'down';
}

function isOff(d: DimensionResult): boolean {
  return Math.abs(d.delta) > d.tolerance;
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
    if (isOff(d)) lines.push(DIMENSION_PHRASES[dim][directionOf(d)].prompt);
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

function dimensionSpans(d: DimensionResult): Span[] {
  const dir = directionOf(d);
  const spans: Span[] = [];
  // Evidence is what pushed the measure away from the target.
  for (const c of d.contributions ?? []) {
    if ((dir === 'down' && c.delta > 0) || (dir === 'up' && c.delta < 0)) spans.push(...c.spans);
    if (spans.length >= MAX_SPANS) break;
  }
  return spans.slice(0, MAX_SPANS);
}


function rewriteSteps(input: AdviceInput): RewriteStep[] {
  const steps: (RewriteStep & { hard: boolean })[] = [];
  const keep = 1 - input.penalty;
  for (const dim of DIMENSIONS) {
    const d = input.dimensions[dim];
    if (!isOff(d) || d.fit >= 1) continue;
    const phrase = DIMENSION_PHRASES[dim][directionOf(d)];
    steps.push({
      hard: false,
      priority: 0,
      target: dim,
      kind: 'dimension',
      action: phrase.action,
      expected_gain: round(100 * d.weight * (1 - d.fit) * keep, 1),
      spans: dimensionSpans(d),
      example: phrase.example,
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
  for (let i = 0; i < input.signals.length; i++) {
    const s = input.signals[i];
    if (s.id === 'superhuman-latency') continue; // the timing step covers it
    const without = machinePenalty(all.filter((_, j) => j !== i));
    const phrase = signalPhrase(s.id);
    steps.push({
      hard: s.hardFail,
      priority: 0,
      target: s.id,
      kind: 'signal',
      action: phrase.action,
      expected_gain: round(100 * input.styleFit * (input.penalty - without), 1),
      spans: s.spans.slice(0, MAX_SPANS),
      example: phrase.example,
    });
  }
  steps.sort((a, b) => Number(b.hard) - Number(a.hard) || b.expected_gain - a.expected_gain || (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
  // Field by field (same key order as the steps above): object rest and spread cost ~0.3 us each.
  return steps.slice(0, MAX_STEPS).map((s, i) => ({
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
