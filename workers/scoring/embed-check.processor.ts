import Ajv from 'ajv';
import { UnrecoverableError, type Job, type Processor } from 'bullmq';
import type Piscina from 'piscina';
import { embedCheckPayloadSchema, encodeJobError, type EmbedCheckJobResult, type EmbedCheckPayload } from '../../jobs';
import { evaluateInContext } from '../../shared/embed/contextual-evaluator';
import { CONTEXTUAL_EVALUATOR, STRUCTURAL_EVALUATOR, sortIssues } from '../../shared/embed/issue-codes';
import type { ChatCompletions } from '../../shared/llm/chat-completions';
import type { Logger } from '../../shared/logger';
import { resolveThreadFile } from '../../shared/thread-file';
import type { EmbedCheckThreadOutput } from '../threads/embed-check.thread';

/** What the embedded-check processor needs. */
export interface EmbedCheckProcessorDeps {
  /** The worker's thread pool; the structural pass runs its own thread file on the pool's threads. */
  pool: Piscina;
  /** The contextual evaluator's provider; undefined when none is configured. */
  chat?: ChatCompletions;
  log: Logger;
}

const validatePayload = new Ajv({ allErrors: true, strict: true }).compile<EmbedCheckPayload>(embedCheckPayloadSchema);

/**
 * Builds the processor of `embed-check` jobs on the `scoring` queue: the structural pass on the
 * thread pool, then in contextual mode one provider evaluation whose answer is checked before it
 * is trusted. An unavailable evaluation (no provider, timeout, 429, 5xx, malformed output) is a
 * result, not a failure: the API answers it without taking a credit. Nothing of the draft is
 * logged or returned.
 * @param deps - pool, provider client, logger
 * @returns the processor
 */
export function createEmbedCheckProcessor(deps: EmbedCheckProcessorDeps): Processor<EmbedCheckPayload, EmbedCheckJobResult> {
  const { filename } = resolveThreadFile(__filename, '../threads/embed-check.thread');
  return async function processEmbedCheck(job: Job<EmbedCheckPayload, EmbedCheckJobResult>, _token?: string, signal?: AbortSignal) {
    if (!validatePayload(job.data)) {
      throw new UnrecoverableError(encodeJobError({ status: 500, code: 'invalid_job_payload', message: 'The job payload does not match its schema.' }));
    }
    const { mode, draft, situation, incoming } = job.data;
    if (mode === 'contextual' && (!deps.chat || situation === undefined)) return { ok: false, unavailable: 'not_configured' };
    const out = (await deps.pool.run(draft, { filename, signal })) as EmbedCheckThreadOutput;
    if (mode === 'structural') return { ok: true, issues: out.issues, evaluator: STRUCTURAL_EVALUATOR, ms: out.ms };
    const started = Date.now();
    const evaluated = await evaluateInContext(deps.chat!, { draft, situation: situation!, incoming }, signal);
    const log = deps.log.child({ jobId: job.id, queue: job.queueName, reqId: job.data.reqId });
    if (!evaluated.ok) {
      log.warn({ evaluator: CONTEXTUAL_EVALUATOR, reason: evaluated.reason, ms: Date.now() - started }, 'contextual evaluation unavailable');
      return { ok: false, unavailable: evaluated.reason };
    }
    log.debug({ evaluator: CONTEXTUAL_EVALUATOR, issues: evaluated.issues.length, ms: Date.now() - started }, 'contextual evaluation done');
    return { ok: true, issues: sortIssues([...out.issues, ...evaluated.issues]), evaluator: CONTEXTUAL_EVALUATOR, ms: out.ms + (Date.now() - started) };
  };
}
