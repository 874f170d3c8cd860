import { createHash } from 'node:crypto';
import type { Job, Queue } from 'bullmq';
import { UnavailableError } from '../shared/errors';
import type { ScoreResult } from '../shared/scoring/result-types';

/** Job name of a scoring request on the `scoring` queue. */
export const SCORE_TEXT_JOB = 'score-text';

/** What the worker needs to score one reply. Plain data; no secrets. */
export interface ScoreTextPayload {
  text: string;
  delaySeconds?: number;
  incoming?: string;
  /** Profile id; absent for profile-free measures only. */
  profile?: string;
  deep: boolean;
  /** Request id of the API call, so worker log lines join API lines. */
  reqId?: string;
  /** Free tier only: the consented reply enters the free corpus under this caller hash. */
  freeCorpus?: { callerHash: string };
}

/** What the worker returns: the engine's result and the time the thread spent. */
export interface ScoreTextResult {
  score: ScoreResult;
  threadMs: number;
}

/** The request identity a job id derives from, so a retried request never makes a second job. */
export type JobIdentity =
  | { kind: 'free-score'; callerHash: string; reservation: number }
  | { kind: 'payment'; authorization: string }
  | { kind: 'idempotency-key'; key: string };

/** JSON schema of {@link ScoreTextPayload}; the processor checks payloads against it. */
export const scoreTextPayloadSchema = {
  type: 'object',
  required: ['text', 'deep'],
  additionalProperties: false,
  properties: {
    text: { type: 'string' },
    delaySeconds: { type: 'number', minimum: 0 },
    incoming: { type: 'string' },
    profile: { type: 'string' },
    deep: { type: 'boolean' },
    reqId: { type: 'string' },
    freeCorpus: {
      type: 'object',
      required: ['callerHash'],
      additionalProperties: false,
      properties: { callerHash: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
    },
  },
} as const;

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 40);
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
      return `free-${identity.callerHash.slice(0, 32)}-${identity.reservation}`;
    case 'payment':
      return `pay-${digest(identity.authorization)}`;
    case 'idempotency-key':
      return `idem-${digest(identity.key)}`;
  }
}

/**
 * Adds a scoring job, with a deadline so a request gets a 503 instead of hanging while Redis is
 * unreachable (BullMQ waits for the connection to be ready before its first command).
 * @param queue - the `scoring` queue on a fail-fast connection
 * @param payload - what to score
 * @param identity - request identity; the job id derives from it
 * @param timeoutMs - enqueue deadline
 * @returns the job (an existing one when the same identity was enqueued before)
 * @throws UnavailableError queue_unavailable when Redis does not take the job in time
 */
export async function enqueueScoreText(
  queue: Queue,
  payload: ScoreTextPayload,
  identity: JobIdentity,
  timeoutMs: number,
): Promise<Job<ScoreTextPayload, ScoreTextResult>> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`enqueue took longer than ${timeoutMs} ms`)), timeoutMs);
  });
  const added = queue.add(SCORE_TEXT_JOB, payload, { jobId: jobIdFor(identity) });
  // The deadline may win; keep a late rejection of `added` from becoming unhandled.
  added.catch(() => undefined);
  try {
    return (await Promise.race([added, deadline])) as Job<ScoreTextPayload, ScoreTextResult>;
  } catch (err) {
    throw new UnavailableError('queue_unavailable', 'The job queue is unreachable; nothing was charged, retry later.', {
      headers: { 'Retry-After': '5' },
      cause: err,
    });
  } finally {
    clearTimeout(timer);
  }
}
