import { scoreThroughQueue } from '../../jobs';
import { findDuel, joinDuel, openDuel, type DuelLeg, type LegDimension } from '../../shared/duel/duel-store';
import { findDuelPrompt } from './duel-prompts';
import type { SessionSummary } from '../../shared/payments/authorization-store';
import type { ProfileResult, ScoreResult } from '../../shared/scoring/result-types';
import { AppError } from '../../shared/errors';
import type { AppDeps } from '../http/deps';
import { scoreInputFrom } from '../http/score-input';
import type { PaidWorkContext, WorkOutcome } from '../payments/paid-work';
import { joinRefusal } from './duel-refusals';
import type { DuelFee } from './duel-fee';
import { DUEL_OPEN_HOURS, type DuelRequest } from './duel.schema';
import { DUEL_CREATED, presentDuel, presentLeg } from './present-duel';

/** A duel request with its defaults applied. */
export type DuelEntry = DuelRequest & { share_answer: boolean };

/** What the route knows besides the request: how to address a duel, and the fee's terms. */
export interface DuelWorkContext {
  challengeUrlFor(duelId: string): string;
  fee: DuelFee;
  reqId: string;
}

// Both bots answer the prompt's situation: it is scored as the incoming message, so empathy,
// directness and timing are judged against the same message.
async function scoreLeg(deps: AppDeps, entry: DuelEntry, paid: PaidWorkContext, reqId: string) {
  const prompt = findDuelPrompt(entry.prompt_id);
  if (!prompt) throw new Error(`duel prompt ${entry.prompt_id} vanished after validation`);
  const { score } = await scoreThroughQueue(
    deps.scoringQueue,
    deps.scoringEvents,
    { input: scoreInputFrom({ ...entry, incoming_message: prompt.situation }), reqId },
    paid.jobIdentity,
    deps.config.jobs,
  );
  const verdict = score.result;
  if (!verdict) throw new Error('the scorer returned no verdict for the target profile');
  return { score, verdict, leg: legOf(verdict, entry, paid) };
}

function legOf(verdict: ProfileResult, entry: DuelEntry, paid: PaidWorkContext): DuelLeg {
  const dimensions: Record<string, LegDimension> = {};
  for (const [id, d] of Object.entries(verdict.dimensions)) {
    if (id === 'timing') {
      const t = d as NonNullable<ProfileResult['dimensions']['timing']>;
      dimensions[id] = { measured: t.measured, target: t.expected, fit: t.fit };
    } else {
      const x = d as ProfileResult['dimensions']['empathy'];
      dimensions[id] = { measured: x.measured, target: x.target, fit: x.fit };
    }
  }
  return {
    payer: paid.payer,
    authorizationId: paid.authorizationId!,
    resultId: paid.resultId,
    eqScore: verdict.eq_score,
    passed: verdict.passed,
    dimensions,
    share: entry.share_answer,
    text: entry.share_answer ? entry.proposed_text : null,
  };
}

// The leg is a full session on the ledger: its verdict, with the targets in force and what was measured.
function summaryOf(score: ScoreResult, verdict: ProfileResult): SessionSummary {
  const text = Object.entries(verdict.dimensions).filter(([id]) => id !== 'timing') as Array<[string, { target: number; tolerance: number; measured: number }]>;
  return {
    profile: verdict.profile,
    score: verdict.eq_score,
    passed: verdict.passed,
    scorerVersion: score.scorer_version,
    personaTargets: Object.fromEntries(text.map(([id, d]) => [id, { target: d.target, tolerance: d.tolerance }])),
    measuredDimensions: Object.fromEntries(text.map(([id, d]) => [id, d.measured])),
  };
}

function feeTerms(fee: DuelFee) {
  return { failures: fee.failures, multiplier: fee.multiplier };
}

/**
 * Opens a duel under the challenger's payment: scores its leg (one job per payment), then stores
 * the open duel. The duel is public and joinable once this payment settles.
 * @param deps - app dependencies
 * @param entry - the validated request (no duel_id)
 * @param paid - the payment's result id and job identity
 * @param ctx - challenge URLs, the fee's terms, the request id
 * @returns the body (DUEL_CREATED with challenge_url), the ledger summary
 */
export async function runOpenDuel(deps: AppDeps, entry: DuelEntry, paid: PaidWorkContext, ctx: DuelWorkContext): Promise<WorkOutcome> {
  const { score, verdict, leg } = await scoreLeg(deps, entry, paid, ctx.reqId);
  const duel = await openDuel(deps.dataSource, { promptId: entry.prompt_id, targetProfile: entry.target_profile, challenger: leg, openHours: DUEL_OPEN_HOURS });
  return {
    response: {
      marker: DUEL_CREATED,
      duel_id: duel.id,
      status: 'open',
      role: 'challenger',
      challenge_url: ctx.challengeUrlFor(duel.id),
      prompt_id: duel.promptId,
      target_profile: duel.targetProfile,
      share_answer: entry.share_answer,
      expires_at: duel.expiresAt.toISOString(),
      leg: presentLeg(score, paid.resultId),
      fee: feeTerms(ctx.fee),
    },
    summary: summaryOf(score, verdict),
    calibrationText: null,
  };
}

/**
 * Joins and resolves a duel under the opponent's payment: scores its leg, then takes the duel in
 * one conditional UPDATE. A join that lost the race (to the expiry sweep or another join) throws
 * the refusal, so the pipeline releases the authorization and settles nothing.
 * @param deps - app dependencies
 * @param entry - the validated request, with duel_id
 * @param paid - the payment's result id and job identity
 * @param ctx - challenge URLs, the fee's terms, the request id
 * @returns the body (the resolution), the ledger summary
 * @throws AppError the join refusals of {@link joinRefusal}
 */
export async function runJoinDuel(deps: AppDeps, entry: DuelEntry & { duel_id: string }, paid: PaidWorkContext, ctx: DuelWorkContext): Promise<WorkOutcome> {
  const { score, verdict, leg } = await scoreLeg(deps, entry, paid, ctx.reqId);
  let duel = await joinDuel(deps.dataSource, entry.duel_id, { promptId: entry.prompt_id, targetProfile: entry.target_profile, opponent: leg });
  if (!duel) {
    const current = await findDuel(deps.dataSource, entry.duel_id);
    // The work of a resumed authorization finds the duel this payment already resolved.
    if (current?.opponent?.authorizationId !== paid.authorizationId) {
      throw joinRefusal(current, entry) ?? new AppError(409, 'duel_unavailable', 'This duel could not be joined just now. Nothing was charged.');
    }
    duel = current;
  }
  return {
    response: { ...presentDuel(duel, ctx.challengeUrlFor(duel.id)), role: 'opponent', leg: presentLeg(score, paid.resultId), fee: feeTerms(ctx.fee) },
    summary: summaryOf(score, verdict),
    calibrationText: null,
  };
}
