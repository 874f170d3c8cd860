import type { DuelLeg, DuelRow } from '../../shared/duel/duel-store';
import { findDuelPrompt } from './duel-prompts';
import { maskWallet } from '../../shared/payments/mask';
import type { ScoreResult } from '../../shared/scoring/result-types';

/** The marker of a duel's creation (interface description section 6). */
export const DUEL_CREATED = 'DUEL_CREATED';

/**
 * The bot's own leg as its response shows it: the session result.
 * @param score - the engine's result for the target profile
 * @param resultId - the leg's public result id
 * @returns the leg's body
 */
export function presentLeg(score: ScoreResult, resultId: string): Record<string, unknown> {
  const verdict = score.result!;
  return {
    result_id: resultId,
    score: {
      scorer_version: score.scorer_version,
      eq_score: verdict.eq_score,
      passed: verdict.passed,
      human_likeness: score.human_likeness,
      suggested_prompt_addition: verdict.advice.suggested_prompt_addition,
      suggested_delay_seconds: verdict.advice.suggested_delay_seconds ?? null,
    },
    improvement: verdict.advice.improvement,
  };
}

// A bot of a duel as the public sees it: masked wallet; its score only once the duel is resolved
// (while open, the challenger's score would tell opponents the bar to beat).
function side(leg: DuelLeg, resolved: boolean): Record<string, unknown> {
  return {
    wallet: maskWallet(leg.payer),
    ...(resolved ? { eq_score: leg.eqScore, passed: leg.passed, result_id: leg.resultId } : {}),
  };
}

// Per dimension: each bot's measured value and fit, the target, and who fitted the profile better.
function breakdown(a: DuelLeg, b: DuelLeg): Array<Record<string, unknown>> {
  return Object.keys(a.dimensions)
    .filter((id) => b.dimensions[id])
    .map((id) => {
      const c = a.dimensions[id];
      const o = b.dimensions[id];
      return {
        dimension: id,
        target: c.target,
        challenger: { measured: c.measured, fit: c.fit },
        opponent: { measured: o.measured, fit: o.fit },
        closer: c.fit > o.fit ? 'challenger' : c.fit < o.fit ? 'opponent' : 'even',
      };
    });
}

/**
 * A duel's public state: the prompt and profile, masked wallets, and once resolved the outcome
 * and both EQ scores; the answers and the per-dimension breakdown only if both bots shared.
 * @param duel - the duel
 * @param challengeUrl - its challenge URL
 * @returns the body
 */
export function presentDuel(duel: DuelRow, challengeUrl: string): Record<string, unknown> {
  const status = duel.status === 'open' && duel.pastExpiry ? 'expired' : duel.status;
  const resolved = status === 'resolved' && duel.opponent !== null;
  const body: Record<string, unknown> = {
    duel_id: duel.id,
    status,
    challenge_url: challengeUrl,
    prompt_id: duel.promptId,
    situation: findDuelPrompt(duel.promptId)?.situation ?? null,
    target_profile: duel.targetProfile,
    created_at: duel.createdAt.toISOString(),
    expires_at: duel.expiresAt.toISOString(),
    challenger: side(duel.challenger, resolved),
    opponent: duel.opponent ? side(duel.opponent, resolved) : null,
  };
  if (resolved && duel.opponent) {
    const shared = duel.challenger.share && duel.opponent.share;
    Object.assign(body, {
      resolved_at: duel.resolvedAt?.toISOString() ?? null,
      outcome: duel.outcome,
      winner: duel.outcome === 'challenger' ? 'challenger' : duel.outcome === 'opponent' ? 'opponent' : null,
      shared,
      ...(shared
        ? { answers: { challenger: duel.challenger.text, opponent: duel.opponent.text }, breakdown: breakdown(duel.challenger, duel.opponent) }
        : {}),
    });
  }
  if (status === 'expired') body.expired_at = duel.expiredAt?.toISOString() ?? duel.expiresAt.toISOString();
  return body;
}
