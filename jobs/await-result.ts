import type { Job, QueueEvents } from 'bullmq';
import { JobTimeoutError } from '../shared/errors';
import { decodeJobError } from './job-error';

// BullMQ's own ttl rejection in Job.waitUntilFinished ("Job wait <name> timed out before finishing ...").
const BULLMQ_TTL_MESSAGE = /timed out before finishing/;

/**
 * Waits for a job's result with a deadline.
 * @param job - the enqueued job
 * @param queueEvents - the process's one QueueEvents for the job's queue, already ready
 * @param timeoutMs - deadline
 * @returns the job's return value
 * @throws JobTimeoutError job_timeout (504) when the deadline passes
 * @throws AppError decoded from the job's failure (e.g. 422 from the scorer, 500 job_failed)
 */
export async function awaitResult<T>(job: Job<unknown, T>, queueEvents: QueueEvents, timeoutMs: number): Promise<T> {
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
    if (timedOut || BULLMQ_TTL_MESSAGE.test(message)) throw new JobTimeoutError(timeoutMs, err);
    throw decodeJobError(message);
  } finally {
    clearTimeout(timer);
  }
}
