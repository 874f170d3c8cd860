import Ajv from 'ajv';
import { UnrecoverableError, type Job, type Processor } from 'bullmq';
import { encodeJobError, rewritePayloadSchema, type RewriteJobResult, type RewritePayload } from '../../jobs';
import type { Logger } from '../../shared/logger';
import { runRewrite, type ScoringPool } from '../pool';

/** What the rewrite processor needs. */
export interface RewriteProcessorDeps {
  pool: ScoringPool;
  log: Logger;
}

const validatePayload = new Ajv({ allErrors: true, strict: true }).compile<RewritePayload>(rewritePayloadSchema);

/**
 * Builds the BullMQ processor of rewrite jobs on the `scoring` queue: check the payload, rewrite on
 * the scoring thread pool (forwarding BullMQ's abort signal), return the result. No database.
 * Input that can never succeed fails at once (UnrecoverableError); anything else is retried.
 * @param deps - pool and logger
 * @returns the processor
 */
export function createRewriteProcessor(deps: RewriteProcessorDeps): Processor<RewritePayload, RewriteJobResult> {
  return async function processRewrite(job: Job<RewritePayload, RewriteJobResult>, _token?: string, signal?: AbortSignal) {
    const log = deps.log.child({ jobId: job.id, queue: job.queueName, attempt: job.attemptsMade + 1, reqId: job.data?.reqId });
    if (!validatePayload(job.data)) {
      throw new UnrecoverableError(
        encodeJobError({ status: 500, code: 'invalid_job_payload', message: 'The job payload does not match its schema.' }),
      );
    }
    const out = await runRewrite(deps.pool, job.data.input, signal);
    if (!out.ok) {
      throw new UnrecoverableError(
        encodeJobError({ status: 422, code: out.error.code, message: out.error.message, details: { field: out.error.field } }),
      );
    }
    log.debug({ threadMs: Math.round(out.ms * 1000) / 1000, edits: out.result.edits.length }, 'text rewritten');
    return { rewrite: out.result, threadMs: out.ms };
  };
}
