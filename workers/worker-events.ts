import type { Job, Worker } from 'bullmq';
import { connectionErrorListener, type Logger } from '../shared/logger';

/**
 * Attaches the two listeners every BullMQ worker of this process needs: connection errors (logged
 * once, then at most once a minute while Redis is down) and failed jobs, logged once, on their
 * final attempt (earlier attempts are retried).
 * @param worker - the worker
 * @param log - logger
 * @param queue - its queue name, on every line
 * @returns the worker
 */
export function watchWorker(worker: Worker, log: Logger, queue: string): Worker {
  worker.on('error', connectionErrorListener(log, { queue }, 'worker error'));
  worker.on('failed', (job: Job | undefined, err: Error) => {
    const attempts = job?.opts.attempts ?? 1;
    if (job && job.attemptsMade < attempts && err.name !== 'UnrecoverableError') return;
    log.warn({ err, jobId: job?.id, queue, attempt: job?.attemptsMade }, 'job failed');
  });
  return worker;
}
