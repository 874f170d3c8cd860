import type { Job, QueueEvents } from 'bullmq';
import { JobTimeoutError } from '../shared/errors';
import { decodeJobError } from './job-error';
import { takeWatch, type JobWatch, type WatchedOutcome } from './job-watch';

// BullMQ's own ttl rejection in Job.waitUntilFinished ("Job wait <name> timed out before finishing ...").
const BULLMQ_TTL_MESSAGE = /timed out before finishing/;

// The watch alone waits until this long before the deadline; then BullMQ's wait, which reads the
// job's state once, takes the rest (an event lost to a trimmed stream still finds the result).
const LAST_LOOK_MS = 1_000;

/**
 * Waits for a job's result with a deadline. A job added through `enqueueWithDeadline` to a queue
 * with bound QueueEvents was watched from before its add (see `JobWatch`): its outcome arrives as
 * an event, with no state read. Any other job, a job whose add found an earlier one with its id
 * (or that was removed), and a watched job still unfinished shortly before the deadline wait
 * through BullMQ's `waitUntilFinished`, which reads the state once after listening.
 * @param job - the enqueued job
 * @param queueEvents - the process's one QueueEvents for the job's queue, already ready
 * @param timeoutMs - deadline
 * @returns the job's return value
 * @throws JobTimeoutError job_timeout (504) when the deadline passes
 * @throws AppError decoded from the job's failure (e.g. 422 from the scorer, 500 job_failed)
 */
export async function awaitResult<T>(job: Job<unknown, T>, queueEvents: QueueEvents, timeoutMs: number): Promise<T> {
  const started = Date.now();
  const watch = takeWatch(job, queueEvents);
  if (watch) {
    const outcome = await watched(watch, Math.max(0, timeoutMs - LAST_LOOK_MS));
    if (outcome?.kind === 'completed') return outcome.value;
    if (outcome?.kind === 'failed') throw decodeJobError(outcome.reason);
  }
  return waitUntilFinished(job, queueEvents, timeoutMs, Math.max(1, timeoutMs - (Date.now() - started)));
}

async function watched<T>(watch: JobWatch<T>, waitMs: number): Promise<WatchedOutcome<T> | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), waitMs);
  });
  try {
    return await Promise.race([watch.next(), giveUp]);
  } finally {
    clearTimeout(timer);
    watch.stop();
  }
}

async function waitUntilFinished<T>(job: Job<unknown, T>, queueEvents: QueueEvents, deadlineMs: number, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  // Our own deadline too: waitUntilFinished starts its ttl only once the queue is ready, so
  // while Redis is unreachable it would never time out on its own.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new Error('deadline passed'));
    }, timeoutMs + 250);
  });
  const finished = job.waitUntilFinished(queueEvents, timeoutMs) as Promise<T>;
  finished.catch(() => undefined);
  try {
    return await Promise.race([finished, deadline]);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (timedOut || BULLMQ_TTL_MESSAGE.test(message)) throw new JobTimeoutError(deadlineMs, err);
    throw decodeJobError(message);
  } finally {
    clearTimeout(timer);
  }
}
