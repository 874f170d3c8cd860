import type { Queue, QueueEvents } from 'bullmq';

/**
 * The web's side of the `exports` queue (progress reports, training-dataset exports): the producer
 * queue and the process's one QueueEvents for it, built by `api/server.ts` and handed by
 * `api/routes.ts` only to the families that use it.
 */
export interface ExportsQueue {
  queue: Queue;
  /** Ready before the server listens. */
  events: QueueEvents;
}
