import type { Queue, QueueEvents } from 'bullmq';
import { awaitResult } from './await-result';
import { enqueueWithDeadline } from './enqueue';

/** The two deadlines of a request's job: Redis taking it, and the worker finishing it. */
export interface JobDeadlines {
  enqueueTimeoutMs: number;
  waitTimeoutMs: number;
}

/** Runs one kind of job for a request and returns its result. */
export type RunThroughQueue<P, R, I> = (queue: Queue, events: QueueEvents, payload: P, identity: I, deadlines: JobDeadlines) => Promise<R>;

/**
 * The enqueue-and-wait of one kind of job: adds the job under the id its request identity gives
 * (or finds the one the same identity made before, so a retried request never makes a second job)
 * and waits for its result, each step with its deadline.
 * @param name - the job name
 * @param jobIdOf - the job id of a request identity
 * @returns the runner; it throws UnavailableError (503) or JobTimeoutError (504), or the job's own
 *   failure decoded
 */
export function throughQueue<P, R, I>(name: string, jobIdOf: (identity: I) => string): RunThroughQueue<P, R, I> {
  return async function runThroughQueue(queue, events, payload, identity, deadlines) {
    const job = await enqueueWithDeadline<P, R>(queue, name, payload, jobIdOf(identity), deadlines.enqueueTimeoutMs);
    return awaitResult(job, events, deadlines.waitTimeoutMs);
  };
}
