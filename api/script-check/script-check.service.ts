import { scriptCheckThroughQueue } from '../../jobs';
import type { AppDeps } from '../http/deps';
import type { PaidWorkContext, WorkOutcome } from '../payments/paid-work';
import { presentScriptCheck } from './present-script-check';
import type { ScriptCheckRequest } from './script-check.schema';

/** The version of the matching rules, recorded on the ledger row in place of a scorer version. */
export const SCRIPT_CHECK_VERSION = 'script-check-1';

/**
 * Runs one script check under a payment: the matching runs on the `scoring` queue (one job per
 * payment, so a retry never checks twice) and is presented. The ledger row records the adherence
 * score; there is no profile and no pass/fail. Nothing is kept for calibration.
 * @param deps - app dependencies
 * @param request - the validated request
 * @param paid - the payment's result id and job identity
 * @param reqId - request id, for the worker's log lines
 * @returns the body to store and deliver, the ledger summary
 */
export async function runScriptCheck(deps: AppDeps, request: ScriptCheckRequest, paid: PaidWorkContext, reqId: string): Promise<WorkOutcome> {
  const { check } = await scriptCheckThroughQueue(
    deps.scoringQueue,
    deps.scoringEvents,
    { input: { reply_text: request.reply_text, approved_facts: request.approved_facts, source_text: request.source_text }, reqId },
    paid.jobIdentity,
    deps.config.jobs,
  );
  return {
    response: presentScriptCheck(paid.resultId, check),
    summary: { profile: null, score: check.adherence_score, passed: null, scorerVersion: SCRIPT_CHECK_VERSION },
    calibrationText: null,
  };
}
