import type { RewriteInput, RewriteResult } from '../shared/rewrite/rewrite';
import { JOB_OWNER_PROPERTIES } from './job-owner';
import { REPLY_INPUT_PROPERTIES, jobIdFor, type JobIdentity } from './score-text.job';
import { throughQueue } from './through-queue';

/** Job name of a rewrite on the `scoring` queue (the rewrite is scoring work: it scores every candidate edit). */
export const REWRITE_JOB = 'rewrite-text';

/** What the worker needs to rewrite one reply toward a profile. Plain data; no secrets. */
export interface RewritePayload {
  input: RewriteInput;
  /** Request id of the API call, so worker log lines join API lines. */
  reqId?: string;
  /** The enqueuing web's database identity, stamped by `enqueueWithDeadline` (see job-owner.ts). */
  databaseId?: string;
}

/** What the worker returns: the rewrite and the time the thread spent. */
export interface RewriteJobResult {
  rewrite: RewriteResult;
  threadMs: number;
}

/** JSON schema of {@link RewritePayload}; the processor checks payloads against it. */
export const rewritePayloadSchema = {
  type: 'object',
  required: ['input'],
  additionalProperties: false,
  properties: {
    input: {
      type: 'object',
      required: ['text', 'profile'],
      additionalProperties: false,
      properties: {
        ...REPLY_INPUT_PROPERTIES,
        profile: { type: 'string' },
      },
    },
    reqId: { type: 'string' },
    ...JOB_OWNER_PROPERTIES,
  },
} as const;

/**
 * The job id of a rewrite: the request identity's id, prefixed so it can never meet a scoring
 * job's id on the same queue.
 * @param identity - what makes the request unique
 * @returns a stable job id
 */
export function rewriteJobId(identity: JobIdentity): string {
  return `rewrite-${jobIdFor(identity)}`;
}

/**
 * Rewrites through the queue: enqueues the job (or finds the one this identity made before) and
 * waits for its result, each step with its deadline.
 */
export const rewriteThroughQueue = throughQueue<RewritePayload, RewriteJobResult, JobIdentity>(REWRITE_JOB, rewriteJobId);
