import type { Span } from './types';
import type { Contribution, DimensionId } from './measure-types';

/** What the engine scores. */
export interface ScoreInput {
  /** The agent's reply. */
  text: string;
  /** Seconds between the incoming message and the reply (>= 0); without it timing is left out. */
  delaySeconds?: number;
  /** The message being answered; improves empathy attunement, directness and timing. */
  incoming?: string;
  /** A profile id, or "all" for every profile; without it only profile-free measures are returned. */
  profile?: string;
  /** Deep tier: contributions, evidence and prioritized rewrite guidance. */
  deep?: boolean;
  /**
   * The writer's part in a role-play: a "helper" answers someone's feelings, an "asker" voices their
   * own, so an asker's turn gets no advice on answering feelings. Without it the reply is a helper's.
   */
  role?: 'helper' | 'asker';
}

/** One text dimension judged against a profile. */
export interface DimensionResult {
  measured: number;
  target: number;
  /** Tolerance band around the target (wider for short texts). */
  tolerance: number;
  /** Signed measured - target. */
  delta: number;
  fit: number;
  weight: number;
  confidence: number;
  /** Deep tier only. */
  contributions?: Contribution[];
}

/** Timing judged against a profile's tempo. */
export interface TimingResult {
  measured: number;
  expected: number;
  window: [number, number];
  fit: number;
  weight: number;
  superhuman: boolean;
  floor: number;
}

/** A machine-like signal as reported to callers. */
export interface SignalResult {
  id: string;
  severity: number;
  count: number;
  /** Penalty actually applied: severity * min(1, count / saturation). */
  penalty: number;
  hard_fail: boolean;
  rule: string;
  source: string;
  spans: Span[];
}

/** One prioritized rewrite step (deep tier). */
export interface RewriteStep {
  priority: number;
  target: DimensionId | 'timing' | string;
  kind: 'signal' | 'dimension' | 'timing';
  action: string;
  /** Expected gain in EQ-score points. */
  expected_gain: number;
  spans: Span[];
  example: string;
}

/** Advice for the agent's operator. */
export interface Advice {
  suggested_prompt_addition: string;
  improvement: string;
  /** Suggested delay for the orchestrator (timing is not a prompt matter). */
  suggested_delay_seconds?: { expected: number; window: [number, number] };
  /** Deep tier only: at most 5 steps, hard fails first, then by expected gain. */
  rewrite_guidance?: RewriteStep[];
}

/** One dimension target the score moved away from the profile's, and why. */
export interface TargetAdjustment {
  dimension: DimensionId;
  /** The profile's own target (as GET /api/profiles lists it). */
  profile: number;
  /** The target this score judged against. */
  adjusted: number;
  reason: string;
}

/**
 * The targets behind a verdict: the profile's own, the ones this score used, and each adjustment
 * with its reason (empty when the profile's targets were used as they are).
 */
export interface TargetsResult {
  profile: Record<DimensionId, number>;
  adjusted: Record<DimensionId, number>;
  adjustments: TargetAdjustment[];
}

/** The verdict against one profile. */
export interface ProfileResult {
  profile: string;
  eq_score: number;
  passed: boolean;
  style_fit: number;
  machine_penalty: number;
  /** The profile's targets and the situation-adjusted ones this verdict used, with the reasons. */
  targets: TargetsResult;
  dimensions: Record<DimensionId, DimensionResult> & { timing?: TimingResult };
  signals: SignalResult[];
  advice: Advice;
}

/** A one-line verdict per profile when scoring against all 28. */
export interface ProfileSummary {
  profile: string;
  eq_score: number;
  passed: boolean;
}

/** The engine's answer. */
export interface ScoreResult {
  scorer_version: string;
  /** 0..100, profile-independent: how human the text and its timing read at all. */
  human_likeness: number;
  /** Profile-independent measures in 0..1. */
  measures: Record<DimensionId, number>;
  /** Profile-free machine signals (no profile gating). */
  signals: SignalResult[];
  /** The target profile's verdict (the best-fitting one when scoring against all). */
  result?: ProfileResult;
  /** Every profile, best first, when profile = "all". */
  profiles?: ProfileSummary[];
}

/**
 * A reply judged against every profile with the full verdict of the worst-fitting ones (the stress
 * test's weakness map): the reply is analysed once for all of it.
 */
export interface WeaknessMapResult extends ScoreResult {
  /** Every profile, best first (as with profile = "all"). */
  profiles: ProfileSummary[];
  /** The full verdicts (advice included) of the worst-fitting profiles, worst first. */
  weakest: ProfileResult[];
}
