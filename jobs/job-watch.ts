import type { EventEmitter } from 'node:events';
import type { Job, Queue, QueueEvents } from 'bullmq';

/** What a job's QueueEvents said about it. */
export type WatchedOutcome<T> =
  | { kind: 'completed'; value: T }
  | { kind: 'failed'; reason: string }
  /** The add found a job with this id already there: its outcome may have been reported long ago. */
  | { kind: 'duplicated' }
  /** The job was removed before it finished (a refused free round drops its job): no outcome will come. */
  | { kind: 'removed' };

// A watch nobody collects, on a job that never finishes nor is removed, is dropped after this long.
const UNCOLLECTED_WATCH_MS = 10 * 60_000;

/**
 * Listens for one job's outcome on its queue's QueueEvents from before the job is added, so the
 * completion cannot pass unseen and no state read is needed to close that race. BullMQ's
 * `waitUntilFinished` attaches its listeners after the add and then asks Redis whether the job
 * has already finished: one Lua call per job, on every paid and free call.
 */
export class JobWatch<T> {
  private outcome: WatchedOutcome<T> | undefined;
  private notify: ((outcome: WatchedOutcome<T>) => void) | undefined;
  private readonly listeners: [string, (args: Record<string, unknown>) => void][];
  private readonly expiry: NodeJS.Timeout;

  /**
   * @param events - the QueueEvents of the job's queue, already reading
   * @param jobId - the id the job will be added with
   */
  constructor(
    readonly events: QueueEvents,
    jobId: string,
  ) {
    this.listeners = [
      [`completed:${jobId}`, (args) => this.settle({ kind: 'completed', value: args.returnvalue as T })],
      [`failed:${jobId}`, (args) => this.settle({ kind: 'failed', reason: String(args.failedReason ?? 'job failed') })],
      [`duplicated:${jobId}`, () => this.settle({ kind: 'duplicated' })],
      [`removed:${jobId}`, () => this.settle({ kind: 'removed' })],
    ];
    // QueueEvents emits `<event>:<jobId>` for every event (BullMQ's own waitUntilFinished listens the
    // same way); its typings list only the plain event names.
    for (const [name, listener] of this.listeners) this.emitter.on(name, listener);
    this.expiry = setTimeout(() => this.stop(), UNCOLLECTED_WATCH_MS).unref();
  }

  /** @returns the outcome, once the QueueEvents report one */
  next(): Promise<WatchedOutcome<T>> {
    if (this.outcome) return Promise.resolve(this.outcome);
    return new Promise((resolve) => {
      this.notify = resolve;
    });
  }

  /** Removes the listeners; an outcome already seen stays readable. */
  stop(): void {
    clearTimeout(this.expiry);
    for (const [name, listener] of this.listeners) this.emitter.removeListener(name, listener);
  }

  private get emitter(): EventEmitter {
    return this.events as unknown as EventEmitter;
  }

  private settle(outcome: WatchedOutcome<T>): void {
    if (this.outcome) return;
    this.outcome = outcome;
    this.stop();
    this.notify?.(outcome);
  }
}

// Set once where a process makes a queue and its QueueEvents; read where jobs are added.
const eventsOf = new WeakMap<Queue, QueueEvents>();
const watchOf = new WeakMap<Job, JobWatch<unknown>>();

/**
 * Names the QueueEvents that reports a producer queue's jobs, so jobs added to it are watched
 * from before their add (see {@link JobWatch}).
 * @param queue - a producer queue
 * @param events - the process's QueueEvents of the same queue
 */
export function bindQueueEvents(queue: Queue, events: QueueEvents): void {
  eventsOf.set(queue, events);
}

/**
 * Starts watching a job about to be added to `queue`, when the queue has bound QueueEvents.
 * @param queue - the producer queue
 * @param jobId - the id the job will be added with
 * @returns the watch, or undefined when the queue has no bound QueueEvents
 */
export function watchBeforeAdd(queue: Queue, jobId: string): JobWatch<unknown> | undefined {
  const events = eventsOf.get(queue);
  return events ? new JobWatch(events, jobId) : undefined;
}

/**
 * Ties a watch to the job its add returned, for {@link takeWatch}.
 * @param job - the added job
 * @param watch - its watch
 */
export function attachWatch(job: Job, watch: JobWatch<unknown>): void {
  watchOf.set(job, watch);
}

/**
 * The watch started before this job was added, if any; each watch is taken once.
 * @param job - the job
 * @param events - the QueueEvents the caller waits on; a watch on other QueueEvents is not used
 * @returns the watch, or undefined
 */
export function takeWatch<T>(job: Job<unknown, T>, events: QueueEvents): JobWatch<T> | undefined {
  const watch = watchOf.get(job) as JobWatch<T> | undefined;
  watchOf.delete(job);
  if (!watch) return undefined;
  if (watch.events !== events) {
    watch.stop();
    return undefined;
  }
  return watch;
}
