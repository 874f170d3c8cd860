import Ajv from 'ajv';
import { UnrecoverableError, type Job, type Processor } from 'bullmq';
import { encodeJobError, stressTestPayloadSchema, type StressTestPayload, type StressTestResult } from '../../jobs';
import type { Logger } from '../../shared/logger';
import type { ScoringPool } from '../pool';
import type { WeaknessMapThreadInput, WeaknessMapThreadOutput } from '../threads/score.thread';

/** What the stress-test processor needs. */
export interface StressTestProcessorDeps {
  /** The scoring pool: the stress test runs on the same threads, by the thread file's named task. */
  pool: ScoringPool;
  log: Logger;
}

// The thread file's named export (Piscina's `name`); a type-only import keeps the engine out of this process.
const WEAKNESS_MAP_TASK = 'weaknessMapThread';

const validatePayload = new Ajv({ allErrors: true, strict: true }).compile<StressTestPayload>(stressTestPayloadSchema);

/**
 * Builds the BullMQ processor of the `stress` queue: check the payload, score the reply against
 * all 28 profiles in one thread task (the reply is measured once; the goal is at most twice
 * a basic session's worker CPU), return the weakness map. Touches no database.
 * Input that can never succeed fails at once (UnrecoverableError); anything else is retried.
 * @param deps - pool and logger
 * @returns the processor
 */
export function createStressTestProcessor(deps: StressTestProcessorDeps): Processor<StressTestPayload, StressTestResult> {
  return async function processStressTest(job: Job<StressTestPayload, StressTestResult>, _token?: string, signal?: AbortSignal) {
    const log = deps.log.child({ jobId: job.id, queue: job.queueName, attempt: job.attemptsMade + 1, reqId: job.data?.reqId });
    if (!validatePayload(job.data)) {
      throw new UnrecoverableError(
        encodeJobError({ status: 500, code: 'invalid_job_payload', message: 'The job payload does not match its schema.' }),
      );
    }
    const task: WeaknessMapThreadInput = { input: job.data.input, weakest: job.data.weakest };
    // The pool is typed for its default task; the named task takes and returns its own types.
    const out = (await deps.pool.run(task as never, { name: WEAKNESS_MAP_TASK, signal })) as unknown as WeaknessMapThreadOutput;
    if (!out.ok) {
      throw new UnrecoverableError(
        encodeJobError({ status: 422, code: out.error.code, message: out.error.message, details: { field: out.error.field } }),
      );
    }
    log.debug({ threadMs: Math.round(out.ms * 1000) / 1000 }, 'stress test scored');
    return { map: out.result, threadMs: out.ms };
  };
}
