import { DEFAULT_HISTORY_LIMIT, progressReportThroughQueue } from '../../jobs';
import type { ProgressRequest } from './progress.schema';
import type { Charge } from '../payments/charge';
import type { AppDeps } from '../http/deps';
import type { ExportsQueue } from '../http/exports-queue';
import type { PaidWorkContext, WorkOutcome } from '../payments/paid-work';
import { progressCharts } from './progress-charts';

/** What every quote of the progress report says besides the price. */
export const PAID_EITHER_WAY =
  'Paid either way: a wallet with no scored session gets an empty report, and the payment is still settled.';

/**
 * The progress report's charge: the live quote, saying that it is paid even for an empty history.
 * @param charge - the live quote (`quoteFor`)
 * @returns the charge with the note in its description
 */
export function progressCharge(charge: Charge): Charge {
  return { ...charge, description: `${charge.description} ${PAID_EITHER_WAY}` };
}

/**
 * Runs one progress report under a payment: the report is computed from the paying wallet's
 * ledger on the `exports` queue (one job per payment) and stored as the replayable body.
 * @param deps - app dependencies and the exports queue
 * @param request - the validated request
 * @param paid - the payment's result id, payer and job identity
 * @param reqId - request id, for the worker's log lines
 * @returns the body and the ledger summary (a report scores nothing)
 */
export async function runProgressReport(
  deps: AppDeps & { exports: ExportsQueue },
  request: ProgressRequest,
  paid: PaidWorkContext,
  reqId: string,
): Promise<WorkOutcome> {
  const payload = { wallet: paid.payer, historyLimit: request.history_limit ?? DEFAULT_HISTORY_LIMIT, reqId };
  const report = await progressReportThroughQueue(deps.exports.queue, deps.exports.events, payload, paid.jobIdentity, deps.config.jobs);
  return {
    response: { result_id: paid.resultId, ...report, charts: progressCharts(report) },
    summary: { profile: report.main_profile, score: null, passed: null, scorerVersion: 'progress-report' },
    calibrationText: null,
  };
}
