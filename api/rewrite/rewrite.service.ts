import { rewriteThroughQueue } from '../../jobs';
import type { AppDeps } from '../http/deps';
import type { PaidWorkContext, WorkOutcome } from '../payments/paid-work';
import { presentRewrite } from './present-rewrite';
import type { RewriteRequest } from './rewrite.schema';

/**
 * Runs one rewrite under a payment: the rewrite job on the `scoring` queue (one job per payment,
 * so a retry never rewrites twice), then the presented body and the ledger summary (the after
 * score). The text is never stored (see present-rewrite.ts).
 * @param deps - app dependencies
 * @param body - the validated request
 * @param paid - the payment's result id and job identity
 * @param reqId - request id, for the worker's log lines
 * @returns the body to store and deliver, and the ledger summary
 */
export async function runRewrite(deps: AppDeps, body: RewriteRequest, paid: PaidWorkContext, reqId: string): Promise<WorkOutcome> {
  const { rewrite } = await rewriteThroughQueue(
    deps.scoringQueue,
    deps.scoringEvents,
    {
      input: { text: body.proposed_text, profile: body.target_profile, delaySeconds: body.response_delay_seconds, incoming: body.incoming_message },
      reqId,
    },
    paid.jobIdentity,
    deps.config.jobs,
  );
  return {
    response: presentRewrite(rewrite, paid.resultId),
    summary: { profile: rewrite.profile, score: rewrite.after.eq_score, passed: rewrite.after.passed, scorerVersion: rewrite.scorer_version },
    calibrationText: null,
  };
}
