import type { Job } from 'bullmq';
import { jobOwnerOf } from '../jobs';
import type { Logger } from '../shared/logger';

/** How long a job of another database waits before a worker (its owner's, with luck) takes it again. */
export const FOREIGN_JOB_RETRY_MS = 250;

/** At most one warning about foreign jobs per this interval (they come with every job of the other stack). */
export const FOREIGN_JOB_WARN_EVERY_MS = 60_000;

/** What {@link createForeignJobGuard} needs. */
export interface ForeignJobGuardOptions {
  /** This worker's database identity (`readDatabaseId`). */
  databaseId: string;
  /** The queue prefix, named in the warning. */
  queuePrefix: string;
  log: Logger;
  retryDelayMs?: number;
  warnEveryMs?: number;
}

/**
 * Puts back a job stamped with another database's identity (see `jobs/job-owner.ts`).
 * @param job - the job the worker took
 * @param token - the worker's lock token of the job
 * @returns true when the job was put back (the processor then throws BullMQ's DelayedError)
 */
export type ForeignJobGuard = (job: Job, token: string) => Promise<boolean>;

/**
 * Builds the check every dispatcher runs before a handler. Two stacks whose webs and workers share
 * a Redis queue prefix but not a database take each other's jobs; a settlement then fails as
 * "authorization not found" in the wrong database. A job stamped with another
 * database's id is neither run nor failed here: it goes back to the queue after a short delay,
 * without using up an attempt (`moveToDelayed` skips the attempt), so its owner's worker takes it.
 * Unstamped jobs (an older web, scheduled jobs) run as before. The cause is logged as a warning,
 * at most once per {@link FOREIGN_JOB_WARN_EVERY_MS}, with the count put back meanwhile.
 * @param options - own database id, queue prefix, logger
 * @returns the guard
 */
export function createForeignJobGuard(options: ForeignJobGuardOptions): ForeignJobGuard {
  const retryDelayMs = options.retryDelayMs ?? FOREIGN_JOB_RETRY_MS;
  const warnEveryMs = options.warnEveryMs ?? FOREIGN_JOB_WARN_EVERY_MS;
  let lastWarning = Number.NEGATIVE_INFINITY;
  let putBack = 0;
  return async function putBackForeignJob(job, token) {
    const owner = jobOwnerOf(job.data);
    if (owner === undefined || owner === options.databaseId) return false;
    await job.moveToDelayed(Date.now() + retryDelayMs, token);
    putBack++;
    const now = Date.now();
    if (now - lastWarning >= warnEveryMs) {
      lastWarning = now;
      options.log.warn(
        { jobId: job.id, queue: job.queueName, queuePrefix: options.queuePrefix, jobDatabase: owner, ownDatabase: options.databaseId, putBack },
        'job of another database put back: two stacks share one queue prefix; give each its own QUEUE_PREFIX',
      );
      putBack = 0;
    }
    return true;
  };
}
