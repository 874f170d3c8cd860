import { availableParallelism } from 'node:os';
import Piscina from 'piscina';
import { UnavailableError } from '../../shared/errors';
import { resolveThreadFile } from '../../shared/thread-file';
import type { CapacityReport } from './threads/capacity.thread';

/** The health-capacity answer: the thread's timings plus what they mean for this host. */
export interface CapacityResult extends CapacityReport {
  threads_available: number;
  estimated_scores_per_second: number;
  note: string;
}

/** Runs the scorer benchmark off the API's event loop. */
export interface CapacityRunner {
  /**
   * @param iterations - characters of reply text to score (one iteration is one character)
   * @param signal - aborts the run (the client went away)
   * @returns the timings
   * @throws UnavailableError capacity_busy when benchmarks are already queued
   */
  run(iterations: number, signal?: AbortSignal): Promise<CapacityResult>;
  close(): Promise<void>;
}

/**
 * Creates the benchmark runner: one Piscina thread, started on first use and stopped when idle,
 * so the API process keeps no CPU-heavy work on its event loop and pays nothing while unused.
 * @returns the runner
 */
export function createCapacityRunner(): CapacityRunner {
  const { filename, execArgv } = resolveThreadFile(__filename, 'threads/capacity.thread');
  const pool = new Piscina<{ iterations: number }, CapacityReport>({
    filename,
    execArgv,
    minThreads: 0,
    maxThreads: 1,
    maxQueue: 2,
    idleTimeout: 30_000,
  });
  return {
    async run(iterations, signal) {
      if (pool.queueSize >= pool.options.maxQueue) {
        throw new UnavailableError('capacity_busy', 'A capacity benchmark is already running; retry shortly.', {
          headers: { 'Retry-After': '5' },
        });
      }
      const report = await pool.run({ iterations }, { signal });
      const threads = availableParallelism();
      return {
        ...report,
        threads_available: threads,
        estimated_scores_per_second: Math.round(report.scores_per_second * threads * 10) / 10,
        note:
          'Local CPU benchmark of the scoring engine on one thread of this host; no database, ledger or network use. ' +
          'Iterations count characters of reply text scored; timings are per score. The estimate assumes every core scores.',
      };
    },
    async close() {
      await pool.close({ force: true });
    },
  };
}
