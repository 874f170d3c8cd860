import type { Job, JobsOptions, Queue } from 'bullmq';
import { UnavailableError } from '../shared/errors';
import { stampJobOwner } from './job-owner';
import { attachWatch, watchBeforeAdd } from './job-watch';

/**
 * Adds a job with a deadline, so a request gets a 503 instead of hanging while Redis is
 * unreachable (BullMQ waits for the connection to be ready before its first command). A job id
 * that exists already returns the existing job: a retried request never makes a second job.
 * The payload is stamped with the queue's owner database, if it has one (see `job-owner.ts`).
 * @param queue - a queue on a fail-fast connection
 * @param name - job name
 * @param payload - job data
 * @param jobId - the id derived from the request identity
 * @param timeoutMs - enqueue deadline
 * @param options - job options beside the queue's defaults (a job that must not outlive its run
 *   removes itself when finished)
 * @returns the job
 * @throws UnavailableError queue_unavailable when Redis does not take the job in time
 */
export async function enqueueWithDeadline<P, R>(
  queue: Queue,
  name: string,
  payload: P,
  jobId: string,
  timeoutMs: number,
  options: Omit<JobsOptions, 'jobId'> = {},
): Promise<Job<P, R>> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`enqueue took longer than ${timeoutMs} ms`)), timeoutMs);
  });
  // Watched from before the add, so awaitResult needs no state read (see JobWatch).
  const watch = watchBeforeAdd(queue, jobId);
  const added = queue.add(name, stampJobOwner(queue, payload), { ...options, jobId });
  // The deadline may win; keep a late rejection of `added` from becoming unhandled.
  added.catch(() => undefined);
  try {
    const job = (await Promise.race([added, deadline])) as Job<P, R>;
    if (watch) attachWatch(job, watch);
    return job;
  } catch (err) {
    watch?.stop();
    throw new UnavailableError('queue_unavailable', 'The job queue is unreachable; nothing was charged, retry later.', {
      headers: { 'Retry-After': '5' },
      cause: err,
    });
  } finally {
    clearTimeout(timer);
  }
}
