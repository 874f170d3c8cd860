import { STRESS_TEST_WEAKEST, stressThroughQueue } from '../../jobs';
import type { AppDeps } from '../http/deps';
import type { PaidWorkContext, WorkOutcome } from '../payments/paid-work';
import { presentWeaknessMap } from './present-weakness-map';
import type { StressQueue } from './stress-queue';
import type { StressTestRequest } from './stress-test.schema';

/**
 * Runs one stress test under a payment: the reply against all 28 profiles on the `stress` queue
 * (one job per payment, so a retry never scores twice), presented as the weakness map. The text
 * is never kept.
 * @param deps - app dependencies
 * @param stress - the `stress` queue and its QueueEvents
 * @param request - the validated request
 * @param paid - the payment's result id and job identity
 * @param reqId - request id, for the worker's log lines
 * @returns the body to store and deliver, and the ledger summary (weakest profile, mean EQ score, all passed)
 */
export async function runStressTest(deps: AppDeps, stress: StressQueue, request: StressTestRequest, paid: PaidWorkContext, reqId: string): Promise<WorkOutcome> {
  const input = { text: request.proposed_text, delaySeconds: request.response_delay_seconds, incoming: request.incoming_message };
  const { map } = await stressThroughQueue(stress.queue, stress.events, { input, weakest: STRESS_TEST_WEAKEST, reqId }, paid.jobIdentity, deps.config.jobs);
  const { body, summary } = presentWeaknessMap(map, paid.resultId);
  return { response: body, summary: { ...summary, scorerVersion: map.scorer_version }, calibrationText: null };
}
