import Ajv from 'ajv';
import { UnrecoverableError, type Job, type Processor } from 'bullmq';
import type Piscina from 'piscina';
import { encodeJobError, scriptCheckPayloadSchema, type ScriptCheckJobResult, type ScriptCheckPayload } from '../../jobs';
import type { Logger } from '../../shared/logger';
import { resolveThreadFile } from '../../shared/thread-file';
import type { ScriptCheckThreadOutput } from '../threads/script-check.thread';

/** What the script-check processor needs. */
export interface ScriptCheckProcessorDeps {
  /** The worker's thread pool; the check runs its own thread file on the pool's threads. */
  pool: Piscina;
  log: Logger;
}

const validatePayload = new Ajv({ allErrors: true, strict: true }).compile<ScriptCheckPayload>(scriptCheckPayloadSchema);

/**
 * Builds the BullMQ processor of `script-check` jobs on the `scoring` queue: check the payload,
 * match the reply's claims against its approved material on the thread pool (forwarding BullMQ's
 * abort signal), return the result. A payload that does not match its schema fails at once
 * (UnrecoverableError); anything else is retried.
 * @param deps - pool and logger
 * @returns the processor
 */
export function createScriptCheckProcessor(deps: ScriptCheckProcessorDeps): Processor<ScriptCheckPayload, ScriptCheckJobResult> {
  const { filename } = resolveThreadFile(__filename, '../threads/script-check.thread');
  return async function processScriptCheck(job: Job<ScriptCheckPayload, ScriptCheckJobResult>, _token?: string, signal?: AbortSignal) {
    const log = deps.log.child({ jobId: job.id, queue: job.queueName, attempt: job.attemptsMade + 1, reqId: job.data?.reqId });
    if (!validatePayload(job.data)) {
      throw new UnrecoverableError(
        encodeJobError({ status: 500, code: 'invalid_job_payload', message: 'The job payload does not match its schema.' }),
      );
    }
    const out = (await deps.pool.run(job.data.input, { filename, signal })) as ScriptCheckThreadOutput;
    log.debug({ threadMs: Math.round(out.ms * 1000) / 1000, claims: out.check.claims_checked }, 'script checked');
    return { check: out.check, ms: out.ms };
  };
}
