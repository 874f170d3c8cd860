import type { Span } from './types';

/** The four text dimensions measured in 0..1 (timing is modelled separately). */
export type DimensionId = 'empathy' | 'formality' | 'directness' | 'hesitation';

/** One term of a measure: which feature moved the value, by how much, and where in the text. */
export interface Contribution {
  feature: string;
  /** Raw feature value (a count, a rate or a 0/1 flag). */
  value: number;
  /** Model weight of the feature. */
  weight: number;
  /** Signed effect on the measure, in the measure's 0..1 units where possible. */
  delta: number;
  spans: Span[];
}

/** A measured dimension: value in 0..1 plus the contributions that explain it. */
export interface DimensionMeasure {
  value: number;
  /** Sorted by |delta| descending, then feature name. */
  contributions: Contribution[];
}

/** EPITOME mechanism levels: 0 none, 1 generic, 2 specific to the incoming message. */
export type MechanismLevel = 0 | 1 | 2;

/** Empathy adds the three EPITOME mechanisms and the emotional load of the incoming message. */
export interface EmpathyMeasure extends DimensionMeasure {
  mechanisms: { er: MechanismLevel; ip: MechanismLevel; ex: MechanismLevel };
  /** Emotional load L of the incoming message in 0..1 (0 without one); target scaling uses it. */
  emotionalLoad: number;
  /** Sentences carrying each empathy construct ("reaction", "reflection", ...), and "specific" for those tied to the incoming message: advice asks only for what is missing. */
  constructs: Readonly<Record<string, number>>;
}

/** What a profile tells the signal detector (all optional: without a profile, the neutral defaults apply). */
export interface SignalContext {
  /** The profile's formality target; casual-only signals fire below their thresholds. */
  profileFormality?: number;
  /** Typical reply length in words, for length-mismatch. */
  typicalWords?: number;
  /** Signal ids this profile exempts (e.g. em-dash for careful-academic). */
  exemptions?: ReadonlySet<string>;
}

/** A machine-like signal that fired, with its evidence. */
export interface SignalHit {
  id: string;
  /** Penalty weight of one full-strength hit (0..1). */
  severity: number;
  count: number;
  /** Count at which the penalty saturates: p = severity * min(1, count / saturation). */
  saturation: number;
  /** Hard fails make the session fail whatever the score. */
  hardFail: boolean;
  /** The rule that fired, human-readable and stable (e.g. "phrase list: assistant openers"). */
  rule: string;
  /** Evidence source key (paper or check behind the rule). */
  source: string;
  spans: Span[];
}
