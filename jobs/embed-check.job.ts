import { hash } from 'node:crypto';
import type { Job, Queue, QueueEvents } from 'bullmq';
import type { ChatFailure } from '../shared/llm/chat-completions';
import type { DraftIssue } from '../shared/embed/issue-codes';
import { awaitResult } from './await-result';
import { enqueueWithDeadline } from './enqueue';
import { JOB_OWNER_PROPERTIES } from './job-owner';

/** Job name of an embedded check on the `scoring` queue. */
export const EMBED_CHECK_JOB = 'embed-check';

/** The two modes of the embedded check. */
export type EmbedCheckMode = 'structural' | 'contextual';

/**
 * What the worker needs to check one draft. The draft is in Redis only while the job exists: the
 * job removes itself when it finishes (see {@link embedCheckThroughQueue}).
 */
export interface EmbedCheckPayload {
  mode: EmbedCheckMode;
  draft: string;
  /** Contextual mode only: the situation the draft answers, and the message it replies to. */
  situation?: string;
  incoming?: string;
  /** Request id of the API call, so worker log lines join API lines. */
  reqId?: string;
  /** The enqueuing web's database identity, stamped by `enqueueWithDeadline` (see job-owner.ts). */
  databaseId?: string;
}

/** What the worker returns: offsets and codes only (never a slice of the draft), or why contextual evaluation is unavailable. */
export type EmbedCheckJobResult =
  | { ok: true; issues: DraftIssue[]; evaluator: string; ms: number }
  | { ok: false; unavailable: ChatFailure | 'not_configured' };

/** JSON schema of {@link EmbedCheckPayload}; the processor checks payloads against it. */
export const embedCheckPayloadSchema = {
  type: 'object',
  required: ['mode', 'draft'],
  additionalProperties: false,
  properties: {
    mode: { type: 'string', enum: ['structural', 'contextual'] },
    draft: { type: 'string' },
    situation: { type: 'string' },
    incoming: { type: 'string' },
    reqId: { type: 'string' },
    ...JOB_OWNER_PROPERTIES,
  },
} as const;

/**
 * The job id of an embedded check: derived from the claim it runs under (bundle and key), so a
 * request retried while its job still runs waits on that job instead of making a second one.
 * @param claim - the bundle id and the stored form of the key (or a random id for a keyless call)
 * @returns a stable job id (no ':', never all digits)
 */
export function embedCheckJobId(claim: string): string {
  return `embed-${hash('sha256', claim, 'hex').slice(0, 40)}`;
}

/**
 * Checks a draft through the queue and waits for the answer. The job runs once (no retries: a
 * contextual job calls the provider, and one accepted key gets at most one evaluation) and removes
 * itself as soon as it finishes, so the draft does not stay in Redis.
 * @param queue - the `scoring` queue on a fail-fast connection
 * @param events - the process's QueueEvents of the `scoring` queue
 * @param payload - what to check
 * @param claim - what the job id derives from ({@link embedCheckJobId})
 * @param deadlines - `enqueueTimeoutMs` and `waitTimeoutMs` of the `jobs` config
 * @returns the worker's result
 * @throws UnavailableError (503) or JobTimeoutError (504), or the job's own failure decoded
 */
export async function embedCheckThroughQueue(
  queue: Queue,
  events: QueueEvents,
  payload: EmbedCheckPayload,
  claim: string,
  deadlines: { enqueueTimeoutMs: number; waitTimeoutMs: number },
): Promise<EmbedCheckJobResult> {
  const job: Job<EmbedCheckPayload, EmbedCheckJobResult> = await enqueueWithDeadline(
    queue,
    EMBED_CHECK_JOB,
    payload,
    embedCheckJobId(claim),
    deadlines.enqueueTimeoutMs,
    { attempts: 1, removeOnComplete: true, removeOnFail: true },
  );
  return awaitResult(job, events, deadlines.waitTimeoutMs);
}
