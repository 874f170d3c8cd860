import { hash } from 'node:crypto';
import type { Job, Queue } from 'bullmq';
import type { ScoreInput, ScoreResult } from '../shared/scoring/result-types';
import { enqueueWithDeadline } from './enqueue';
import { JOB_OWNER_PROPERTIES } from './job-owner';
import { throughQueue } from './through-queue';

/** Job name of a scoring request on the `scoring` queue. */
export const SCORE_TEXT_JOB = 'score-text';

/** What the worker needs to score one reply: the engine's own input, as the API built it. Plain data; no secrets. */
export interface ScoreTextPayload {
  input: ScoreInput;
  /** Request id of the API call, so worker log lines join API lines. */
  reqId?: string;
  /** The enqueuing web's database identity, stamped by `enqueueWithDeadline` (see job-owner.ts). */
  databaseId?: string;
}

/** What the worker returns: the engine's result and the time the thread spent. */
export interface ScoreTextResult {
  score: ScoreResult;
  threadMs: number;
}

/** The request identity a job id derives from, so a retried request never makes a second job. */
export type JobIdentity =
  /** A free-tier round: a random id the API draws per request (a free request has no retry identity). */
  | { kind: 'free-score'; round: string }
  | { kind: 'payment'; authorization: string }
  | { kind: 'idempotency-key'; key: string }
  /** A role-play turn: a random id the API draws per attempt (the database records a turn once). */
  | { kind: 'roleplay-turn'; attempt: string }
  /** A coaching drill attempt: the attempt's own id (one counted attempt, one job). */
  | { kind: 'drill-attempt'; attempt: string };

/** Schema properties of a reply in a job's input (the engine's `text`, `delaySeconds`, `incoming`), shared by the scoring jobs. */
export const REPLY_INPUT_PROPERTIES = {
  text: { type: 'string' },
  delaySeconds: { type: 'number', minimum: 0 },
  incoming: { type: 'string' },
} as const;

/** JSON schema of {@link ScoreTextPayload}; the processor checks payloads against it. */
export const scoreTextPayloadSchema = {
  type: 'object',
  required: ['input'],
  additionalProperties: false,
  properties: {
    input: {
      type: 'object',
      required: ['text'],
      additionalProperties: false,
      properties: {
        ...REPLY_INPUT_PROPERTIES,
        profile: { type: 'string' },
        deep: { type: 'boolean' },
        role: { enum: ['helper', 'asker'] },
      },
    },
    reqId: { type: 'string' },
    ...JOB_OWNER_PROPERTIES,
  },
} as const;

// One-shot hashing: every scoring job's id goes through here, and a Hash object per call cost
// the web 8 µs of a free score (profile at 50 connections); `hash` gives the same digest.
function digest(value: string): string {
  return hash('sha256', value, 'hex').slice(0, 40);
}

/**
 * Derives the BullMQ job id from the request identity. Ids never contain ':' (BullMQ's key
 * separator) and never are all digits (BullMQ's own ids are), and opaque keys are hashed so a
 * caller cannot choose another caller's id.
 * @param identity - what makes the request unique
 * @returns a stable job id
 */
export function jobIdFor(identity: JobIdentity): string {
  switch (identity.kind) {
    case 'free-score':
      return `free-${digest(identity.round)}`;
    case 'payment':
      return `pay-${digest(identity.authorization)}`;
    case 'idempotency-key':
      return `idem-${digest(identity.key)}`;
    case 'roleplay-turn':
      return `turn-${digest(identity.attempt)}`;
    case 'drill-attempt':
      return `drill-${digest(identity.attempt)}`;
  }
}

/**
 * Adds a scoring job, with a deadline (see {@link enqueueWithDeadline}).
 * @param queue - the `scoring` queue on a fail-fast connection
 * @param payload - what to score
 * @param identity - request identity; the job id derives from it
 * @param timeoutMs - enqueue deadline
 * @returns the job (an existing one when the same identity was enqueued before)
 * @throws UnavailableError queue_unavailable when Redis does not take the job in time
 */
export function enqueueScoreText(
  queue: Queue,
  payload: ScoreTextPayload,
  identity: JobIdentity,
  timeoutMs: number,
): Promise<Job<ScoreTextPayload, ScoreTextResult>> {
  return enqueueWithDeadline(queue, SCORE_TEXT_JOB, payload, jobIdFor(identity), timeoutMs);
}

/**
 * Scores through the queue: enqueues the job (or finds the one this identity made before) and
 * waits for its result, each step with its deadline.
 */
export const scoreThroughQueue = throughQueue<ScoreTextPayload, ScoreTextResult, JobIdentity>(SCORE_TEXT_JOB, jobIdFor);
