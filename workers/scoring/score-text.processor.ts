import Ajv from 'ajv';
import { UnrecoverableError, type Job, type Processor } from 'bullmq';
import { encodeJobError, scoreTextPayloadSchema, type ScoreTextPayload, type ScoreTextResult } from '../../jobs';
import type { Logger } from '../../shared/logger';
import type { ScoringPool } from '../pool';

/** What the scoring processor needs. */
export interface ScoreTextProcessorDeps {
  pool: ScoringPool;
  log: Logger;
}

const validatePayload = new Ajv({ allErrors: true, strict: true }).compile<ScoreTextPayload>(scoreTextPayloadSchema);

/**
 * Builds the BullMQ processor of the `scoring` queue: check the payload, score on the thread pool
 * (forwarding BullMQ's abort signal), return the result. The processor touches no database: what a
 * product records about a scored reply, the API records.
 * Input that can never succeed fails at once (UnrecoverableError); anything else is retried.
 * @param deps - pool and logger
 * @returns the processor
 */
export function createScoreTextProcessor(deps: ScoreTextProcessorDeps): Processor<ScoreTextPayload, ScoreTextResult> {
  return async function processScoreText(job: Job<ScoreTextPayload, ScoreTextResult>, _token?: string, signal?: AbortSignal) {
    if (!validatePayload(job.data)) {
      throw new UnrecoverableError(
        encodeJobError({ status: 500, code: 'invalid_job_payload', message: 'The job payload does not match its schema.' }),
      );
    }
    const out = await deps.pool.run(job.data.input, { signal });
    if (!out.ok) {
      throw new UnrecoverableError(
        encodeJobError({ status: 422, code: out.error.code, message: out.error.message, details: { field: out.error.field } }),
      );
    }
    // The job's child logger only when its line is written: one per job (pino's child bindings and
    // redaction) showed up in the worker's profile of a free score, for a debug line.
    if (deps.log.isLevelEnabled('debug')) {
      const log = deps.log.child({ jobId: job.id, queue: job.queueName, attempt: job.attemptsMade + 1, reqId: job.data?.reqId });
      log.debug({ threadMs: Math.round(out.ms * 1000) / 1000 }, 'text scored');
    }
    return { score: out.result, threadMs: out.ms };
  };
}
