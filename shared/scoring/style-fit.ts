import type { Profile } from '../profiles/profile';
import { clamp } from './math';
import type { DimensionId, SignalHit } from './measure-types';

/** Dimensions in report order. */
export const DIMENSIONS: readonly DimensionId[] = ['empathy', 'formality', 'directness', 'hesitation'];

const DEFAULT_WEIGHTS: Record<DimensionId | 'timing', number> = {
  empathy: 0.25,
  formality: 0.2,
  directness: 0.2,
  hesitation: 0.15,
  timing: 0.2,
};

/** Beyond the tolerance band, fit falls linearly to 0 over this distance. */
const FIT_RANGE = 0.4;

/**
 * Dimension weights of a profile, with timing dropped (and the rest renormalized) when no delay
 * was given.
 * @param profile - the profile
 * @param withTiming - whether a delay was supplied
 * @returns weights that sum to 1
 */
export function weightsFor(profile: Profile, withTiming: boolean): Record<DimensionId | 'timing', number> {
  const w = { ...DEFAULT_WEIGHTS, ...profile.overrides.weights };
  if (!withTiming) w.timing = 0;
  const total = w.empathy + w.formality + w.directness + w.hesitation + w.timing;
  return {
    empathy: w.empathy / total,
    formality: w.formality / total,
    directness: w.directness / total,
    hesitation: w.hesitation / total,
    timing: w.timing / total,
  };
}

/**
 * How sure we are of a measure: short texts are noisy.
 * @param words - words in the reply
 * @param hasIncoming - empathy needs the incoming message to judge attunement
 * @param dim - the dimension
 */
export function confidenceOf(words: number, hasIncoming: boolean, dim: DimensionId): number {
  const c = Math.min(1, words / 25);
  return dim === 'empathy' && !hasIncoming ? Math.min(c, 0.5) : c;
}

/**
 * The tolerance band of a measure around its target: it widens for short texts.
 * @param confidence - how sure the measure is (see {@link confidenceOf})
 * @returns the half-width of the band
 */
export function toleranceOf(confidence: number): number {
  return 0.1 + 0.15 * (1 - confidence);
}

/**
 * Fit of a measure to its target: 1 inside the tolerance band, falling linearly to 0 beyond it.
 * @param measured - the measure
 * @param target - the profile's target
 * @param tolerance - the band (see {@link toleranceOf})
 * @returns fit in 0..1
 */
export function fitWithin(measured: number, target: number, tolerance: number): number {
  const excess = Math.max(0, Math.abs(measured - target) - tolerance);
  return clamp(1 - excess / FIT_RANGE);
}

/**
 * The empathy target attuned to the incoming message: a warm person does not pour out feeling
 * about a deploy command (t_eff = t * (0.5 + 0.5 L)). Without an incoming message, the plain target.
 */
export function empathyTarget(target: number, emotionalLoad: number | undefined): number {
  return emotionalLoad === undefined ? target : target * (0.5 + 0.5 * emotionalLoad);
}

/** Signal penalties combine like probabilities and are capped so style still counts. */
export const MAX_MACHINE_PENALTY = 0.6;

/**
 * One signal's penalty: p = severity * min(1, count / saturation).
 * @param hit - the signal
 */
export function signalPenalty(hit: Pick<SignalHit, 'severity' | 'count' | 'saturation'>): number {
  return hit.severity * Math.min(1, hit.count / hit.saturation);
}

/**
 * Combined machine penalty P = min(0.6, 1 - prod(1 - p_i)).
 * @param penalties - each signal's p_i
 */
export function machinePenalty(penalties: readonly number[]): number {
  let keep = 1;
  for (const p of penalties) keep *= 1 - p;
  return Math.min(MAX_MACHINE_PENALTY, 1 - keep);
}

// Kept private (the interface description says the pass rule is not shown): a session passes at
// or above this EQ score, with every dimension fit at least MIN_FIT and no hard-fail signal.
export const PASS_SCORE = 70;
export const MIN_FIT = 0.4;
