import { PROFILES } from '../profiles';
import type { Profile } from '../profiles/profile';
import { analyze } from './analyze';
import { advise } from './advise';
import { measureDirectness } from './directness';
import { measureEmpathy } from './empathy';
import { measureFormality } from './formality';
import { measureHesitation } from './hesitation';
import { measureTextHumanLikeness } from './human-likeness';
import { round } from './math';
import type { DimensionId, DimensionMeasure, EmpathyMeasure, SignalContext, SignalHit } from './measure-types';
import type { DimensionResult, ProfileResult, ProfileSummary, ScoreInput, ScoreResult, SignalResult, TargetAdjustment, TargetsResult, TimingResult, WeaknessMapResult } from './result-types';
import { detectSignals } from './signals';
import { DIMENSIONS, MIN_FIT, PASS_SCORE, confidenceOf, empathyTarget, fitWithin, machinePenalty, signalPenalty, toleranceOf, weightsFor } from './style-fit';
import { modelTiming, superhumanFloor, timingFit, type TimingInput } from './timing';
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
  /** The superhuman-latency hit when the delay is under the floor; the floor is the same for every profile. */
  superhuman?: SignalHit;
  /** Measure values, in {@link DIMENSIONS} order. */
  values: number[];
  /** How sure each measure is, in {@link DIMENSIONS} order (it does not depend on the profile). */
  confidences: number[];
  /** The tolerance band of each measure, from its confidence, in {@link DIMENSIONS} order. */
  tolerances: number[];
  /** The incoming message's emotional load, or undefined without one (scales the empathy target). */
  emotionalLoad?: number;
  role?: ScoreInput['role'];
}

/**
 * What scoring a profile needs that does not depend on the reply, built once at module load so
 * scoring all 28 profiles allocates no per-profile weights, sets or keys.
 */
interface ProfilePlan {
  profile: Profile;
  /** Targets in {@link DIMENSIONS} order (the empathy one before attunement). */
  targets: number[];
  /** Weights in {@link DIMENSIONS} order, then timing's (index {@link TIMING}). */
  weightsWithTiming: number[];
  weightsWithoutTiming: number[];
  signalContext: SignalContext;
}

const EMPATHY = DIMENSIONS.indexOf('empathy');
const TIMING = DIMENSIONS.length;

function weightList(w: Record<DimensionId | 'timing', number>): number[] {
  return [...DIMENSIONS.map((dim) => w[dim]), w.timing];
}

function planOf(profile: Profile): ProfilePlan {
  return {
    profile,
    targets: DIMENSIONS.map((dim) => profile.targets[dim]),
    weightsWithTiming: weightList(weightsFor(profile, true)),
    weightsWithoutTiming: weightList(weightsFor(profile, false)),
    signalContext: {
      profileFormality: profile.targets.formality,
      typicalWords: profile.typicalWords,
      exemptions: new Set(profile.overrides.exemptSignals ?? []),
    },
  };
}

const PLANS: readonly ProfilePlan[] = PROFILES.map(planOf);
const PLAN_BY_ID = new Map(PLANS.map((plan) => [plan.profile.id, plan]));

/**
 * Measures the reply once. Contributions (and their spans) reach the output only in the deep
 * tier, so the other tiers ask the measures for values alone.
 */
function measureOnce(input: ScoreInput, deep: boolean): Measured {
  const reply = analyze(input.text);
  const incoming = input.incoming !== undefined && input.incoming.trim() !== '' ? analyze(input.incoming) : undefined;
  const hesitation = measureHesitation(reply, deep);
  const dims = {
    empathy: measureEmpathy(reply, incoming, deep),
    formality: measureFormality(reply, deep),
    directness: measureDirectness(reply, incoming, hesitation, deep),
    hesitation,
  };
  let timing: TimingInput | undefined;
  let superhuman: SignalHit | undefined;
  if (input.delaySeconds !== undefined) {
    let questions = 0;
    if (incoming) for (const t of incoming.tokens) if (t.text === '?') questions++;
    timing = {
      delaySeconds: input.delaySeconds,
      replyChars: input.text.trim().length,
      incomingWords: incoming?.words ?? 0,
      incomingQuestions: questions,
    };
    const floor = superhumanFloor(timing.replyChars, timing.incomingWords);
    if (timing.delaySeconds < floor) superhuman = superhumanSignal(timing, floor, reply.text);
  }
  const hasIncoming = incoming !== undefined;
  const confidences = DIMENSIONS.map((dim) => confidenceOf(reply.words, hasIncoming, dim));
  return {
    reply,
    incoming,
    dims,
    timing,
    neutralSignals: detectSignals(reply, {}),
    superhuman,
    values: DIMENSIONS.map((dim) => dims[dim].value),
    confidences,
    tolerances: confidences.map(toleranceOf),
    emotionalLoad: hasIncoming ? dims.empathy.emotionalLoad : undefined,
    role: input.role,
  };
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

/**
 * The numbers of one profile's verdict, without the advice. A verdict judged for ranking only
 * (`full` false in {@link judge}) has empty dimensions and no timing detail.
 */
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

/** The dimensions of a verdict judged for ranking only: never read, so never built. */
const NO_DIMENSIONS = Object.freeze({}) as Record<DimensionId, DimensionResult>;

/**
 * Judges the reply against one profile. Ranking all 28 needs only the scores, so `full` false skips
 * the per-dimension and timing records (and their allocations); the numbers are computed
 * by the same code either way.
 */
function judge(m: Measured, plan: ProfilePlan, deep: boolean, full = true): Verdict {
  const profile = plan.profile;
  const weights = m.timing !== undefined ? plan.weightsWithTiming : plan.weightsWithoutTiming;
  const dimensions = full ? ({} as Record<DimensionId, DimensionResult>) : NO_DIMENSIONS;
  let weighted = 0;
  let minFit = 1;
  for (let k = 0; k < DIMENSIONS.length; k++) {
    const measured = m.values[k];
    const target = k === EMPATHY ? empathyTarget(plan.targets[k], m.emotionalLoad) : plan.targets[k];
    const tolerance = m.tolerances[k];
    const fit = fitWithin(measured, target, tolerance);
    weighted += weights[k] * fit;
    minFit = Math.min(minFit, fit);
    if (!full) continue;
    const dim = DIMENSIONS[k];
    const result: DimensionResult = { measured, target, tolerance, delta: measured - target, fit, weight: weights[k], confidence: m.confidences[k] };
    if (deep) result.contributions = m.dims[dim].contributions;
    dimensions[dim] = result;
  }
  const signals = detectSignals(m.reply, plan.signalContext);
  let timing: TimingResult | undefined;
  if (m.timing) {
    let fit: number;
    if (full) {
      const t = modelTiming(m.timing, profile.tempo);
      fit = t.fit;
      timing = { measured: t.measured, expected: t.expected, window: t.window, fit: t.fit, weight: weights[TIMING], superhuman: t.superhuman, floor: t.floor };
    } else fit = timingFit(m.timing, profile.tempo);
    weighted += weights[TIMING] * fit;
    minFit = Math.min(minFit, fit);
    // The superhuman floor does not depend on the profile, so measureOnce's hit stands for every profile.
    if (m.superhuman) signals.unshift(m.superhuman);
  }
  const styleFit = weighted; // weights sum to 1
  const penalty = machinePenalty(signals.map(signalPenalty));
  const eqScore = Math.round(100 * styleFit * (1 - penalty));
  const passed = eqScore >= PASS_SCORE && minFit >= MIN_FIT && !signals.some((s) => s.hardFail);
  return { profile, eqScore, passed, styleFit, penalty, dimensions, timing, signals };
}

// Built field by field rather than by spreading (a spread costs ~0.3 us). The key order
// is the order judge() builds, so the JSON is unchanged.
function roundDimension(d: DimensionResult): DimensionResult {
  const r: DimensionResult = {
    measured: round(d.measured),
    target: round(d.target),
    tolerance: round(d.tolerance),
    delta: round(d.delta),
    fit: round(d.fit),
    weight: round(d.weight),
    confidence: round(d.confidence),
  };
  if (d.contributions) r.contributions = d.contributions.map((c) => ({ ...c, value: round(c.value), weight: round(c.weight), delta: round(c.delta) }));
  return r;
}

function roundTiming(t: TimingResult): TimingResult {
  return {
    measured: round(t.measured, 2),
    expected: round(t.expected, 1),
    window: [round(t.window[0], 1), round(t.window[1], 1)],
    fit: round(t.fit),
    weight: round(t.weight),
    superhuman: t.superhuman,
    floor: round(t.floor, 2),
  };
}

/**
 * The profile's targets beside the ones the verdict used. Only empathy is ever adjusted: scaled
 * by the incoming message's emotional load (attunement).
 */
function targetsOf(m: Measured, v: Verdict): TargetsResult {
  const profile = {} as Record<DimensionId, number>;
  const adjusted = {} as Record<DimensionId, number>;
  const adjustments: TargetAdjustment[] = [];
  for (const dim of DIMENSIONS) {
    profile[dim] = round(v.profile.targets[dim]);
    adjusted[dim] = round(v.dimensions[dim].target);
    if (adjusted[dim] !== profile[dim]) {
      const load = round(m.emotionalLoad ?? 0, 2);
      adjustments.push({
        dimension: dim,
        profile: profile[dim],
        adjusted: adjusted[dim],
        reason:
          `The incoming message carries emotional load ${load} (0 = practical, 1 = distressed), so the empathy target is ` +
          `the profile's ${profile[dim]} x (0.5 + 0.5 x ${load}): a warm person stays brief about practical matters and is fully warm when there is distress.`,
      });
    }
  }
  return { profile, adjusted, adjustments };
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
    targets: targetsOf(m, v),
    dimensions,
    signals: v.signals.map(toSignalResult),
    advice: advise({
      profile: v.profile,
      reply: m.reply,
      dimensions: v.dimensions,
      timing: v.timing,
      signals: v.signals,
      styleFit: v.styleFit,
      penalty: v.penalty,
      deep,
      mechanisms: m.dims.empathy.mechanisms,
      constructs: m.dims.empathy.constructs,
      emotionalLoad: m.emotionalLoad,
      role: m.role,
    }),
  };
}

function humanLikeness(m: Measured): number {
  const text = measureTextHumanLikeness(m.reply, m.neutralSignals, false).value;
  let factor = 1;
  // Hard fails are definitional, not statistical: a canned disclaimer or a reply faster than
  // any typist reads as machine whatever the style model thinks.
  for (const s of m.neutralSignals) if (s.hardFail) factor *= 0.5;
  if (m.superhuman) factor *= 0.25;
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
  const m = measureOnce(input, deep);
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
    const verdicts = PLANS.map((plan) => judge(m, plan, false, false));
    const order = verdicts
      .map((v, i) => ({ v, i }))
      .sort((a, b) => b.v.eqScore - a.v.eqScore || b.v.styleFit - a.v.styleFit || a.i - b.i);
    const summaries: ProfileSummary[] = order.map(({ v }) => ({ profile: v.profile.id, eq_score: v.eqScore, passed: v.passed }));
    result.profiles = summaries;
    result.result = present(m, judge(m, PLANS[order[0].i], deep), deep);
  } else if (input.profile !== undefined) {
    result.result = present(m, judge(m, PLAN_BY_ID.get(input.profile)!, deep), deep);
  }
  return result;
}

/**
 * Scores a reply against all 28 profiles and gives the full verdict (dimensions, signals, advice)
 * of the `weakest` worst-fitting ones: the stress test's weakness map. The reply is
 * measured once; the ranking and the verdicts are the same numbers {@link scoreText} gives for
 * profile "all" and for each profile alone.
 * @param input - the reply, optional delay and incoming message (the profile is ignored: all are scored)
 * @param weakest - how many of the worst-fitting profiles get a full verdict (0..28)
 * @returns the score against all, with `weakest` worst first
 * @throws ScoringInputError for empty or oversized text or a bad delay
 */
export function scoreWeaknessMap(input: ScoreInput, weakest: number): WeaknessMapResult {
  const all: ScoreInput = { text: input.text, delaySeconds: input.delaySeconds, incoming: input.incoming, profile: 'all', deep: input.deep, role: input.role };
  validateScoreInput(all);
  const deep = all.deep === true;
  const m = measureOnce(all, deep);
  const verdicts = PLANS.map((plan) => judge(m, plan, false, false));
  const order = verdicts
    .map((v, i) => ({ v, i }))
    .sort((a, b) => b.v.eqScore - a.v.eqScore || b.v.styleFit - a.v.styleFit || a.i - b.i);
  const count = Math.max(0, Math.min(order.length, Math.floor(weakest)));
  return {
    scorer_version: SCORER_VERSION,
    human_likeness: humanLikeness(m),
    measures: {
      empathy: round(m.dims.empathy.value),
      formality: round(m.dims.formality.value),
      directness: round(m.dims.directness.value),
      hesitation: round(m.dims.hesitation.value),
    },
    signals: m.neutralSignals.map(toSignalResult),
    result: present(m, judge(m, PLANS[order[0].i], deep), deep),
    profiles: order.map(({ v }) => ({ profile: v.profile.id, eq_score: v.eqScore, passed: v.passed })),
    weakest: order
      .slice(order.length - count)
      .reverse()
      .map(({ i }) => present(m, judge(m, PLANS[i], deep), deep)),
  };
}
