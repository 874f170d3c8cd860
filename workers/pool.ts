import Piscina from 'piscina';
import type { AppConfig } from '../shared/config';
import { resolveThreadFile } from '../shared/thread-file';
import type { ScoreInput } from '../shared/scoring';
import type { ScoreThreadOutput } from './threads/score.thread';
import type { RewriteThreadOutput } from './threads/score.thread';
import type { RewriteInput } from '../shared/rewrite/rewrite';

/** The scoring thread pool of a worker process. */
export type ScoringPool = Piscina<ScoreInput, ScoreThreadOutput>;

/**
 * Creates the Piscina pool over the scoring thread. Threads stay alive (minThreads = maxThreads)
 * because each loads the NLP model once; the queue is bounded, so Redis stays the real backlog.
 * @param scoring - the `scoring` section of the config
 * @returns the pool; close it after the BullMQ worker on shutdown
 */
export function createScoringPool(scoring: Pick<AppConfig['scoring'], 'threads' | 'concurrency'>): ScoringPool {
  const { filename, execArgv } = resolveThreadFile(__filename, 'threads/score.thread');
  return new Piscina<ScoreInput, ScoreThreadOutput>({
    filename,
    execArgv,
    minThreads: scoring.threads,
    maxThreads: scoring.threads,
    maxQueue: Math.max(scoring.threads * scoring.threads, scoring.concurrency),
    idleTimeout: 60_000,
  });
}

/**
 * Runs the thread's named `rewrite` task on the scoring pool (same threads, same loaded engine).
 * @param pool - the scoring pool
 * @param input - what to rewrite
 * @param signal - BullMQ's abort signal
 * @returns the thread's answer
 */
export function runRewrite(pool: ScoringPool, input: RewriteInput, signal?: AbortSignal): Promise<RewriteThreadOutput> {
  return (pool as unknown as Piscina<RewriteInput, RewriteThreadOutput>).run(input, { name: 'rewrite', signal });
}
