import type { Job, Worker } from 'bullmq';
import { Histogram, Registry } from 'prom-client';
import { collectProcessMetrics } from '../../shared/process-metrics';

// Label values come from fixed code sets; anything else (a foreign job's name) is folded into
// `other`, so no payload content can become a label value or blow up the series count.
const CODE = /^[a-z0-9_-]{1,64}$/;
const safe = (value: string) => (CODE.test(value) ? value : 'other');

/** How a job attempt ended. */
export type JobOutcome = 'completed' | 'failed';

/**
 * A worker process's Prometheus metrics: job durations per queue and job name, and Node's default
 * process metrics. One registry per process (per runtime in tests), never prom-client's global one.
 */
export interface WorkerMetrics {
  registry: Registry;
  /** Observes every finished attempt of a BullMQ worker's jobs. */
  observe(worker: Worker): void;
}

/**
 * Creates the worker metrics. `job_duration_seconds` is timed from BullMQ's own stamps: from when
 * the job became active (`processedOn`) to when it finished, per attempt, with the outcome.
 * @returns the metrics
 */
export function createWorkerMetrics(): WorkerMetrics {
  const registry = new Registry();
  collectProcessMetrics(registry);
  const durations = new Histogram({
    name: 'job_duration_seconds',
    help: 'Job attempt durations in the worker, by queue, job name and outcome.',
    labelNames: ['queue', 'job', 'outcome'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [registry],
  });
  const record = (job: Job | undefined, outcome: JobOutcome) => {
    if (!job?.processedOn) return;
    const seconds = Math.max(0, (job.finishedOn ?? Date.now()) - job.processedOn) / 1000;
    durations.observe({ queue: safe(job.queueName), job: safe(job.name), outcome }, seconds);
  };
  return {
    registry,
    observe(worker) {
      worker.on('completed', (job) => record(job, 'completed'));
      worker.on('failed', (job) => record(job, 'failed'));
    },
  };
}
