import type { Job, Queue } from 'bullmq';
import type { ScoreInput, WeaknessMapResult } from '../shared/scoring/result-types';
import { enqueueWithDeadline } from './enqueue';
import { JOB_OWNER_PROPERTIES } from './job-owner';
import { REPLY_INPUT_PROPERTIES, jobIdFor, type JobIdentity } from './score-text.job';
import { throughQueue } from './through-queue';

/** Job name of a stress test on the `stress` queue. */
export const STRESS_TEST_JOB = 'stress-test';

/** How many of the worst-fitting profiles a stress test details (prompt fixes and gaps). */
export const STRESS_TEST_WEAKEST = 3;

/** What the worker needs for one stress test: the reply (scored against every profile). Plain data; no secrets. */
export interface StressTestPayload {
  /** The reply, its delay and incoming message; the profile is not set: all 28 are scored. */
  input: Omit<ScoreInput, 'profile' | 'deep'>;
  /** How many of the worst profiles get a full verdict. */
  weakest: number;
  /** Request id of the API call, so worker log lines join API lines. */
  reqId?: string;
  /** The enqueuing web's database identity, stamped by `enqueueWithDeadline` (see job-owner.ts). */
  databaseId?: string;
}

/** What the worker returns: the weakness map and the time the thread spent. */
export interface StressTestResult {
  map: WeaknessMapResult;
  threadMs: number;
}

/** JSON schema of {@link StressTestPayload}; the processor checks payloads against it. */
export const stressTestPayloadSchema = {
  type: 'object',
  required: ['input', 'weakest'],
  additionalProperties: false,
  properties: {
    input: {
      type: 'object',
      required: ['text'],
      additionalProperties: false,
      properties: REPLY_INPUT_PROPERTIES,
    },
    weakest: { type: 'integer', minimum: 0, maximum: 28 },
    reqId: { type: 'string' },
    ...JOB_OWNER_PROPERTIES,
  },
} as const;

/**
 * Adds a stress-test job, with a deadline (see {@link enqueueWithDeadline}). The job id derives
 * from the request identity as on the scoring queue, so a retry of the same payment finds the
 * same job.
 * @param queue - the `stress` queue on a fail-fast connection
 * @param payload - the reply
 * @param identity - request identity
 * @param timeoutMs - enqueue deadline
 * @returns the job (an existing one when the same identity was enqueued before)
 * @throws UnavailableError queue_unavailable when Redis does not take the job in time
 */
export function enqueueStressTest(queue: Queue, payload: StressTestPayload, identity: JobIdentity, timeoutMs: number): Promise<Job<StressTestPayload, StressTestResult>> {
  return enqueueWithDeadline(queue, STRESS_TEST_JOB, payload, jobIdFor(identity), timeoutMs);
}

/**
 * Runs a stress test through the `stress` queue: the job for a request identity, enqueued once and awaited (see `throughQueue`).
 */
export const stressThroughQueue = throughQueue<StressTestPayload, StressTestResult, JobIdentity>(STRESS_TEST_JOB, jobIdFor);
