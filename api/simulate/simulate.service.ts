import { scoreThroughQueue } from '../../jobs';
import { PRODUCT_TERMS } from '../../shared/products';
import type { AppDeps } from '../http/deps';
import { scoreInputFrom } from '../http/score-input';
import type { PaidWorkContext, WorkOutcome } from '../payments/paid-work';
import { presentSession } from './present-session';
import type { SimulateRequest, SimulateTier } from './simulate.schema';
import type { ProfileResult } from '../../shared/scoring/result-types';
import type { SessionSummary } from '../../shared/payments/authorization-store';

// The targets in force now and what was measured, frozen into the ledger row.
function frozenDimensions(verdict: ProfileResult): Pick<SessionSummary, 'personaTargets' | 'measuredDimensions'> {
  const text = Object.entries(verdict.dimensions).filter(([id]) => id !== 'timing') as Array<[string, { target: number; tolerance: number; measured: number }]>;
  return {
    personaTargets: Object.fromEntries(text.map(([id, d]) => [id, { target: d.target, tolerance: d.tolerance }])),
    measuredDimensions: Object.fromEntries(text.map(([id, d]) => [id, d.measured])),
  };
}

/** A simulate request with its defaults applied. */
export type SimulateSession = SimulateRequest & { tier: SimulateTier; share_for_calibration: boolean };

/**
 * Runs one simulate session under a payment: scores the reply on the `scoring` queue (one job per
 * payment, so a retry never scores twice) and presents it. The text is kept for calibration only
 * when the caller asked and the score is above the threshold (section 8).
 * @param deps - app dependencies
 * @param session - the validated request
 * @param paid - the payment's result id and job identity
 * @param reqId - request id, for the worker's log lines
 * @returns the body to store and deliver, the ledger summary, the calibration text
 */
export async function runSimulateSession(deps: AppDeps, session: SimulateSession, paid: PaidWorkContext, reqId: string): Promise<WorkOutcome> {
  const { score } = await scoreThroughQueue(
    deps.scoringQueue,
    deps.scoringEvents,
    { input: scoreInputFrom(session, session.tier === 'deep'), reqId },
    paid.jobIdentity,
    deps.config.jobs,
  );
  const verdict = score.result;
  if (!verdict) throw new Error('the scorer returned no verdict for the target profile');
  const eligible = verdict.eq_score > PRODUCT_TERMS.calibrationThresholdPct;
  return {
    response: presentSession(score, { resultId: paid.resultId, tier: session.tier, calibration: { requested: session.share_for_calibration, eligible } }),
    summary: {
      profile: verdict.profile,
      score: verdict.eq_score,
      passed: verdict.passed,
      scorerVersion: score.scorer_version,
      ...frozenDimensions(verdict),
      ...(session.store_text_for_training === true ? { trainingText: session.proposed_text } : {}),
    },
    calibrationText: session.share_for_calibration && eligible ? session.proposed_text : null,
  };
}
