import { PROFILES, findProfile } from '../profiles';
import type { Profile } from '../profiles/profile';
import { analyze } from './analyze';
import { advise } from './advise';
import { measureDirectness } from './directness';
import { measureEmpathy } from './empathy';
import { measureFormality } from './formality';
import { measureHesitation } from './hesitation';
import { measureTextHumanLikeness } from './human-likeness';
import { round } from './math';
import type { DimensionId, DimensionMeasure, EmpathyMeasure, SignalHit } from './measure-types';
import type { DimensionResult, ProfileResult, ProfileSummary, ScoreInput, ScoreResult, SignalResult, TimingResult } from './result-types';
import { detectSignals } from './signals';
import { DIMENSIONS, MIN_FIT, PASS_SCORE, confidenceOf, empathyTarget, fitOf, machinePenalty, weightsFor } from './style-fit';
import { modelTiming, superhumanFloor, type TimingInput } from './timing';
import { validateScoreInput } from './validate-input';
import { SCORER_VERSION } from './version';
import type { Analysis } from './types';
import { spanOf } from './span';

/** Everything measured once per reply, before any profile is considered. */
interface Measured {
  reply: Analysis;
  incoming?: Analysis;
  dims: Record<DimensionId, DimensionMeasure> & { empathy: EmpathyMeasure };
  timing?: TimingInput;
  /** Signals with no profile gating. */
  neutralSignals: SignalHit[];
  /** Signals per profile context, computed on demand and shared between profiles with equal contexts. */
  signalsByContext: Map<string, SignalHit[]>;
}

function measureOnce(input: ScoreInput): Measured {
  const reply = analyze(input.text);
  const incoming = input.incoming !== undefined && input.incoming.trim() !== '' ? analyze(input.incoming) : undefined;
  const dims = {
    empathy: measureEmpathy(reply, incoming),
    formality: measureFormality(reply),
    directness: measureDirectness(reply, incoming),
    hesitation: measureHesitation(reply),
  };
  let timing: TimingInput | undefined;
  if (input.delaySeconds !== undefined) {
    let questions = 0;
    if (incoming) for (const t of incoming.tokens) if (t.text === '?') questions++;
    timing = {
      delaySeconds: input.delaySeconds,
      replyChars: input.text.trim().length,
      incomingWords: incoming?.words ?? 0,
      incomingQuestions: questions,
    };
  }
  return { reply, incoming, dims, timing, neutralSignals: detectSignals(reply, {}), signalsByContext: new Map() };
}

function signalPenalty(hit: SignalHit): number {
  return hit.severity * Math.min(1, hit.count / hit.saturation);
}

function toSignalResult(hit: SignalHit): SignalResult {
  return {
    id: hit.id,
    severity: round(hit.severity),
    count: hit.count,
    penalty: round(signalPenalty(hit)),
    hard_fail: hit.hardFail,
    rule: hit.rule,
    source: hit.source,
    spans: hit.spans,
  };
}

function superhumanSignal(timing: TimingInput, floor: number, text: string): SignalHit {
  return {
    id: 'superhuman-latency',
    severity: 1,
    count: 1,
    saturation: 1,
    hardFail: true,
    rule: `delay ${round(timing.delaySeconds, 2)} s is under the ${round(floor, 2)} s floor (composing at 150 wpm after skimming at 600 wpm)`,
    source: 'dhakal2018-typing',
    spans: [spanOf(text, 0, text.length)],
  };
}

function signalsFor(m: Measured, profile: Profile): SignalHit[] {
  const ctx = {
    profileFormality: profile.targets.formality,
    typicalWords: profile.typicalWords,
    exemptions: new Set(profile.overrides.exemptSignals ?? []),
  };
  const key = `${ctx.profileFormality}|${ctx.typicalWords}|${[...ctx.exemptions].join(',')}`;
  let hits = m.signalsByContext.get(key);
  if (!hits) {
    hits = detectSignals(m.reply, ctx);
    m.signalsByContext.set(key, hits);
  }
  return hits;
}

/** The numbers of one profile's verdict, without the advice and evidence (cheap for all 28). */
interface Verdict {
  profile: Profile;
  eqScore: number;
  passed: boolean;
  styleFit: number;
  penalty: number;
  dimensions: Record<DimensionId, DimensionResult>;
  timing?: TimingResult;
  signals: SignalHit[];
}

function judge(m: Measured, profile: Profile, deep: boolean): Verdict {
  const weights = weightsFor(profile, m.timing !== undefined);
  const hasIncoming = m.incoming !== undefined;
  const dimensions = {} as Record<DimensionId, DimensionResult>;
  let weighted = 0;
  let minFit = 1;
  for (const dim of DIMENSIONS) {
    const measure = m.dims[dim];
    const target = dim === 'empathy' ? empathyTarget(profile.targets.empathy, hasIncoming ? m.dims.empathy.emotionalLoad : undefined) : profile.targets[dim];
    const confidence = confidenceOf(m.reply.words, hasIncoming, dim);
    const { tolerance, fit } = fitOf(measure.value, target, confidence);
    weighted += weights[dim] * fit;
    minFit = Math.min(minFit, fit);
    dimensions[dim] = {
      measured: measure.value,
      target,
      tolerance,
      delta: measure.value - target,
      fit,
      weight: weights[dim],
      confidence,
      ...(deep ? { contributions: measure.contributions } : {}),
    };
  }
  const signals = [...signalsFor(m, profile)];
  let timing: TimingResult | undefined;
  if (m.timing) {
    const t = modelTiming(m.timing, profile.tempo);
    weighted += weights.timing * t.fit;
    minFit = Math.min(minFit, t.fit);
    timing = { measured: t.measured, expected: t.expected, window: t.window, fit: t.fit, weight: weights.timing, superhuman: t.superhuman, floor: t.floor };
    if (t.superhuman) signals.unshift(superhumanSignal(m.timing, t.floor, m.reply.text));
  }
  const styleFit = weighted; // weights sum to 1
  const penalty = machinePenalty(signals.map(signalPenalty));
  const eqScore = Math.round(100 * styleFit * (1 - penalty));
  const passed = eqScore >= PASS_SCORE && minFit >= MIN_FIT && !signals.some((s) => s.hardFail);
  return { profile, eqScore, passed, styleFit, penalty, dimensions, timing, signals };
}

function roundDimension(d: DimensionResult): DimensionResult {
  return {
    ...d,
    measured: round(d.measured),
    target: round(d.target),
    tolerance: round(d.tolerance),
    delta: round(d.delta),
    fit: round(d.fit),
    weight: round(d.weight),
    confidence: round(d.confidence),
    ...(d.contributions
      ? { contributions: d.contributions.map((c) => ({ ...c, value: round(c.value), weight: round(c.weight), delta: round(c.delta) })) }
      : {}),
  };
}

function roundTiming(t: TimingResult): TimingResult {
  return {
    ...t,
    measured: round(t.measured, 2),
    expected: round(t.expected, 1),
    window: [round(t.window[0], 1), round(t.window[1], 1)],
    fit: round(t.fit),
    weight: round(t.weight),
    floor: round(t.floor, 2),
  };
}

function present(m: Measured, v: Verdict, deep: boolean): ProfileResult {
  const dimensions = {} as ProfileResult['dimensions'];
  for (const dim of DIMENSIONS) dimensions[dim] = roundDimension(v.dimensions[dim]);
  if (v.timing) dimensions.timing = roundTiming(v.timing);
  return {
    profile: v.profile.id,
    eq_score: v.eqScore,
    passed: v.passed,
    style_fit: round(v.styleFit),
    machine_penalty: round(v.penalty),
    dimensions,
    signals: v.signals.map(toSignalResult),
    advice: advise({ profile: v.profile, reply: m.reply, dimensions: v.dimensions, timing: v.timing, signals: v.signals, styleFit: v.styleFit, penalty: v.penalty, deep }),
  };
}

function humanLikeness(m: Measured): number {
  const text = measureTextHumanLikeness(m.reply, m.neutralSignals).value;
  let factor = 1;
  // Hard fails are definitional, not statistical: a canned disclaimer or a reply faster than
  // any typist reads as machine whatever the style model thinks.
  for (const s of m.neutralSignals) if (s.hardFail) factor *= 0.5;
  if (m.timing && m.timing.delaySeconds < superhumanFloor(m.timing.replyChars, m.timing.incomingWords)) factor *= 0.25;
  return round(100 * text * factor, 1);
}

/**
 * Scores a reply: profile-free measures and human-likeness, and the verdict against one profile
 * or all 28. Pure and deterministic: the same input always gives the same output, byte for byte.
 * @param input - the reply, optional delay, incoming message, profile and tier
 * @returns the score with `scorer_version`
 * @throws ScoringInputError for empty or oversized text, a bad delay or an unknown profile
 */
export function scoreText(input: ScoreInput): ScoreResult {
  validateScoreInput(input);
  const deep = input.deep === true;
  const m = measureOnce(input);
  const result: ScoreResult = {
    scorer_version: SCORER_VERSION,
    human_likeness: humanLikeness(m),
    measures: {
      empathy: round(m.dims.empathy.value),
      formality: round(m.dims.formality.value),
      directness: round(m.dims.directness.value),
      hesitation: round(m.dims.hesitation.value),
    },
    signals: m.neutralSignals.map(toSignalResult),
  };
  if (input.profile === 'all') {
    const verdicts = PROFILES.map((p) => judge(m, p, false));
    const order = verdicts
      .map((v, i) => ({ v, i }))
      .sort((a, b) => b.v.eqScore - a.v.eqScore || b.v.styleFit - a.v.styleFit || a.i - b.i);
    const summaries: ProfileSummary[] = order.map(({ v }) => ({ profile: v.profile.id, eq_score: v.eqScore, passed: v.passed }));
    result.profiles = summaries;
    const best = order[0].v.profile;
    result.result = present(m, deep ? judge(m, best, true) : order[0].v, deep);
  } else if (input.profile !== undefined) {
    result.result = present(m, judge(m, findProfile(input.profile)!, deep), deep);
  }
  return result;
}
