import type { ScriptCheckInput, ScriptCheckResult } from '../shared/script-check/check-script';
import { JOB_OWNER_PROPERTIES } from './job-owner';
import { jobIdFor, type JobIdentity } from './score-text.job';
import { throughQueue } from './through-queue';

/** Job name of a script check on the `scoring` queue. */
export const SCRIPT_CHECK_JOB = 'script-check';

/** What the worker needs to check one reply against its script. Plain data; no secrets. */
export interface ScriptCheckPayload {
  input: ScriptCheckInput;
  /** Request id of the API call, so worker log lines join API lines. */
  reqId?: string;
  /** The enqueuing web's database identity, stamped by `enqueueWithDeadline` (see job-owner.ts). */
  databaseId?: string;
}

/** What the worker returns: the check, and the time it took. */
export interface ScriptCheckJobResult {
  check: ScriptCheckResult;
  ms: number;
}

/** JSON schema of {@link ScriptCheckPayload}; the processor checks payloads against it. */
export const scriptCheckPayloadSchema = {
  type: 'object',
  required: ['input'],
  additionalProperties: false,
  properties: {
    input: {
      type: 'object',
      required: ['reply_text'],
      additionalProperties: false,
      properties: {
        reply_text: { type: 'string' },
        approved_facts: { type: 'array', items: { type: 'string' } },
        source_text: { type: 'string' },
      },
    },
    reqId: { type: 'string' },
    ...JOB_OWNER_PROPERTIES,
  },
} as const;

/**
 * The job id of a script check: the request identity's id with its own prefix, so a script check
 * never shares an id with a scoring job on the same queue.
 * @param identity - what makes the request unique (the payment)
 * @returns a stable job id (no ':')
 */
export function scriptCheckJobIdFor(identity: JobIdentity): string {
  return `script-check-${jobIdFor(identity)}`;
}

/**
 * Checks a reply through the queue: the job for a request identity, enqueued once and awaited (see `throughQueue`).
 */
export const scriptCheckThroughQueue = throughQueue<ScriptCheckPayload, ScriptCheckJobResult, JobIdentity>(SCRIPT_CHECK_JOB, scriptCheckJobIdFor);
