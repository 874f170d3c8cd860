import { scoreThroughQueue } from '../../jobs';
import { newCoachingCertificateId, type CoachingCertificateRecord } from '../../shared/coaching/certificate';
import type { Drill, Pack } from '../../shared/coaching/packs';
import { AppError } from '../../shared/errors';
import type { ProfileResult } from '../../shared/scoring/result-types';
import type { AppDeps } from '../http/deps';
import { certifiedDrills, standingOf, type PackStanding } from './drill-progress';
import { bestScores, giveAttemptBack, issueCertificate, lockEnrollment, recordScore, takeAttempt, type EnrollmentRow } from './enrollment-store';
import { maskWallet } from '../../shared/payments/mask';

/** A validated drill attempt. */
export interface DrillInput {
  proposed_text: string;
  response_delay_seconds: number;
}

/** What a scored drill attempt yields for the presenter. */
export interface DrillOutcome {
  attemptId: string;
  attemptsLeft: number;
  verdict: ProfileResult;
  humanLikeness: number;
  scorerVersion: string;
  standing: PackStanding;
  certificateId: string | null;
}

/**
 * The error when an enrollment has no attempt left.
 * @param total - attempts the enrollment included
 * @returns the 409
 */
export function noAttemptsLeft(total: number): AppError {
  return new AppError(409, 'no_attempts_left', `All ${total} attempts of this enrollment are used; enroll again (POST /api/coaching) to keep drilling.`, {
    details: { attempts_left: 0, attempts_total: total },
  });
}

/**
 * One drill attempt: take an attempt (atomically; none left is a 409), score the reply against the
 * drill's profile on the `scoring` queue (the drill's situation is the incoming message), record
 * the score, and issue the certificate when this attempt completes the pack. A scoring failure
 * (queue down, timeout, engine refusal) gives the attempt back before the error goes out.
 * @param deps - app dependencies
 * @param enrollment - the enrollment the secret opened
 * @param pack - its pack
 * @param drill - the drill attempted (of that pack)
 * @param input - the reply
 * @param reqId - request id, for the worker's log lines
 * @returns the outcome
 * @throws AppError 409 no_attempts_left; 503/504 and decoded job errors from scoring
 */
export async function runDrill(deps: AppDeps, enrollment: EnrollmentRow, pack: Pack, drill: Drill, input: DrillInput, reqId: string): Promise<DrillOutcome> {
  const taken = await takeAttempt(deps.dataSource, enrollment.id, drill.id);
  if (!taken) throw noAttemptsLeft(enrollment.attemptsTotal);
  let score;
  try {
    ({ score } = await scoreThroughQueue(
      deps.scoringQueue,
      deps.scoringEvents,
      { input: { text: input.proposed_text, delaySeconds: input.response_delay_seconds, incoming: drill.situation, profile: drill.target_profile }, reqId },
      { kind: 'drill-attempt', attempt: taken.attemptId },
      deps.config.jobs,
    ));
    if (!score.result) throw new Error('the scorer returned no verdict for the drill profile');
  } catch (err) {
    await giveAttemptBack(deps.dataSource, taken.attemptId);
    throw err;
  }
  const verdict = score.result;
  const scorerVersion = score.scorer_version;
  const { standing, certificateId } = await deps.dataSource.transaction(async (em) => {
    await recordScore(em, { attemptId: taken.attemptId, eqScore: verdict.eq_score, cleared: verdict.eq_score >= drill.bar, scorerVersion });
    const locked = await lockEnrollment(em, enrollment.id);
    const { best, scored } = await bestScores(em, enrollment.id);
    const now = standingOf(pack, best, scored);
    if (!now.complete || locked.certificateId) return { standing: now, certificateId: locked.certificateId };
    const record: CoachingCertificateRecord = {
      certificate_id: newCoachingCertificateId(),
      pack_id: pack.id,
      pack_name: pack.name,
      wallet: maskWallet(enrollment.wallet),
      drills: certifiedDrills(now),
      average_score: now.average_score,
      average_bar: now.average_bar,
      attempts_used: locked.attemptsTotal - locked.attemptsLeft,
      certified_at: new Date().toISOString(),
    };
    await issueCertificate(em, enrollment.id, record);
    return { standing: now, certificateId: record.certificate_id };
  });
  return { attemptId: taken.attemptId, attemptsLeft: taken.attemptsLeft, verdict, humanLikeness: score.human_likeness, scorerVersion, standing, certificateId };
}
