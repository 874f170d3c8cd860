import { DelayedError, UnrecoverableError, type Job, type Processor } from 'bullmq';
import { QUEUE_JOBS, encodeJobError, type QueueName } from '../jobs';
import type { ForeignJobGuard } from './foreign-job';

/**
 * One processor per queue that routes each job to exactly one handler by job name. A job with no
 * handler fails at once (it can never succeed); an empty handler map is a startup error. With a
 * guard, a job that belongs to another database is put back for its owner before any handler
 * sees it (see `foreign-job.ts`).
 * @param queue - queue name
 * @param handlers - job name -> processor
 * @param guard - puts back jobs of another database
 * @param declared - the jobs the web enqueues on this queue (`QUEUE_JOBS`), each needing a handler
 * @returns the queue's processor
 * @throws Error at startup when no handler is given, or a declared job has none
 */
export function createDispatcher(
  queue: QueueName,
  handlers: Record<string, Processor>,
  guard?: ForeignJobGuard,
  declared: readonly string[] = QUEUE_JOBS[queue] ?? [],
): Processor {
  if (Object.keys(handlers).length === 0) throw new Error(`queue "${queue}" has no job handlers; register one per job name`);
  const missing = declared.filter((name) => !Object.hasOwn(handlers, name));
  if (missing.length > 0) {
    throw new Error(`queue "${queue}" has no processor for ${missing.map((n) => `"${n}"`).join(', ')}: the web enqueues it (jobs/declared-jobs.ts); register one in workers/main.ts`);
  }
  return async function dispatch(job: Job, token?: string, signal?: AbortSignal) {
    // DelayedError tells BullMQ the job was moved on purpose: neither failed nor completed.
    if (guard && token !== undefined && (await guard(job, token))) throw new DelayedError();
    const handler = handlers[job.name];
    if (!handler) {
      throw new UnrecoverableError(
        encodeJobError({ status: 500, code: 'unknown_job', message: `No handler for job "${job.name}" on queue "${queue}".` }),
      );
    }
    return handler(job, token, signal);
  };
}
