import { performance } from 'node:perf_hooks';
import Ajv from 'ajv';
import { UnrecoverableError, type Job, type Processor } from 'bullmq';
import { encodeJobError, scriptCheckPayloadSchema, type ScriptCheckJobResult, type ScriptCheckPayload } from '../../jobs';
import type { Logger } from '../../shared/logger';
import { checkScript } from '../../shared/script-check/check-script';

/** What the script-check processor needs. */
export interface ScriptCheckProcessorDeps {
  log: Logger;
}

const validatePayload = new Ajv({ allErrors: true, strict: true }).compile<ScriptCheckPayload>(scriptCheckPayloadSchema);

/**
 * Builds the BullMQ processor of `script-check` jobs on the `scoring` queue: check the payload,
 * match the reply's claims against its approved material, return the result. The matching runs
 * here rather than on the thread pool: it is string matching over inputs bounded by the request
 * schema (a few milliseconds), cheaper than the structured clone to a thread and back.
 * A payload that does not match its schema fails at once (UnrecoverableError).
 * @param deps - logger
 * @returns the processor
 */
export function createScriptCheckProcessor(deps: ScriptCheckProcessorDeps): Processor<ScriptCheckPayload, ScriptCheckJobResult> {
  return async function processScriptCheck(job: Job<ScriptCheckPayload, ScriptCheckJobResult>) {
    const log = deps.log.child({ jobId: job.id, queue: job.queueName, attempt: job.attemptsMade + 1, reqId: job.data?.reqId });
    if (!validatePayload(job.data)) {
      throw new UnrecoverableError(
        encodeJobError({ status: 500, code: 'invalid_job_payload', message: 'The job payload does not match its schema.' }),
      );
    }
    const started = performance.now();
    const check = checkScript(job.data.input);
    const ms = performance.now() - started;
    log.debug({ ms: Math.round(ms * 1000) / 1000, claims: check.claims_checked }, 'script checked');
    return { check, ms };
  };
}
