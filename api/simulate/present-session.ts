import { PRODUCT_TERMS } from '../../shared/products';
import type { ProfileResult, ScoreResult } from '../../shared/scoring/result-types';

/**
 * The parts of a paid session the response shows, besides the score. The payment pipeline adds
 * what every paid response carries (referral code, reward tokens, payment or redemption).
 */
export interface SessionContext {
  resultId: string;
  tier: 'basic' | 'deep';
  /** Whether the caller asked to share the text, and whether it qualified (above 85.0). */
  calibration: { requested: boolean; eligible: boolean };
}

function diagnostics(verdict: ProfileResult) {
  const dims = Object.entries(verdict.dimensions).map(([id, d]) => {
    if (id === 'timing') return [id, d];
    const { contributions, ...rest } = d as ProfileResult['dimensions']['empathy'];
    return [id, { ...rest, contributions: contributions ?? [] }];
  });
  return Object.fromEntries(dims) as Record<string, unknown>;
}

/**
 * The response body of a paid scoring session. Basic: the score with the prompt addition and the
 * improvement hint. Deep adds per-dimension diagnostics (measured, target, delta), the
 * machine-like signals with their evidence spans, the profile's and the adjusted targets, and
 * prioritized rewrite guidance.
 * @param score - the engine's result for the target profile
 * @param session - result id, tier, calibration
 * @returns the body (stored as is for replays)
 */
export function presentSession(score: ScoreResult, session: SessionContext): Record<string, unknown> {
  const verdict = score.result;
  if (!verdict) throw new Error('a paid session is always scored against its target profile');
  const body: Record<string, unknown> = {
    result_id: session.resultId,
    tier: session.tier,
    target_profile: verdict.profile,
    score: {
      scorer_version: score.scorer_version,
      eq_score: verdict.eq_score,
      passed: verdict.passed,
      human_likeness: score.human_likeness,
      suggested_prompt_addition: verdict.advice.suggested_prompt_addition,
      suggested_delay_seconds: verdict.advice.suggested_delay_seconds ?? null,
    },
    improvement: verdict.advice.improvement,
    calibration: {
      shared: session.calibration.requested,
      stored: session.calibration.requested && session.calibration.eligible,
      threshold_score: PRODUCT_TERMS.calibrationThresholdPct,
    },
  };
  if (session.tier === 'deep') {
    body.diagnostics = diagnostics(verdict);
    body.targets = verdict.targets;
    body.signals = verdict.signals;
    body.rewrite_guidance = verdict.advice.rewrite_guidance ?? [];
  }
  return body;
}
