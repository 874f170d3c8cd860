import { UnrecoverableError, type Job, type Processor } from 'bullmq';
import { encodeJobError } from '../jobs';

/**
 * One processor per queue that routes each job to exactly one handler by job name. A job with no
 * handler fails at once (it can never succeed); an empty handler map is a startup error.
 * @param queue - queue name, for messages
 * @param handlers - job name -> processor
 * @returns the queue's processor
 * @throws Error at startup when no handler is given
 */
export function createDispatcher(queue: string, handlers: Record<string, Processor>): Processor {
  if (Object.keys(handlers).length === 0) throw new Error(`queue "${queue}" has no job handlers; register one per job name`);
  return async function dispatch(job: Job, token?: string, signal?: AbortSignal) {
    const handler = handlers[job.name];
    if (!handler) {
      throw new UnrecoverableError(
        encodeJobError({ status: 500, code: 'unknown_job', message: `No handler for job "${job.name}" on queue "${queue}".` }),
      );
    }
    return handler(job, token, signal);
  };
}
