import { performance } from 'node:perf_hooks';
import { SCORER_VERSION, scoreText } from '../../../shared/scoring';
import type { ScoreInput } from '../../../shared/scoring';

/** Timings of one benchmark run, in milliseconds. */
export interface CapacityReport {
  iterations: number;
  scorer_version: string;
  total_ms: number;
  mean_ms: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  scores_per_second: number;
}

// A fixed, varied workload: short and long replies, with and without timing, context and profile.
const SAMPLES: ScoreInput[] = [
  { text: 'yeah that works, see you at 6!', delaySeconds: 9, profile: 'warm-casual-texter' },
  {
    text: 'DATABASE_URL. Set it in the CI secrets, then rerun the job.',
    delaySeconds: 12,
    incoming: 'The build fails on main, which env var is missing?',
    profile: 'terse-senior-engineer',
  },
  {
    text:
      "I'm really sorry you're dealing with this. It sounds exhausting to keep chasing the same refund. " +
      'Could you tell me the order number? I will check what happened and what we can do today.',
    delaySeconds: 40,
    incoming: 'This is the third time I am asking about my refund and nobody answers.',
    profile: 'upbeat-support-agent',
  },
  {
    text:
      'Certainly! I hope this helps! Here are a few key considerations: first, ensure that your configuration is correct; ' +
      'second, verify the environment variables; third, restart the service. Let me know if you have any other questions!',
    delaySeconds: 1,
    profile: 'busy-parent-on-phone',
  },
  { text: 'hmm, not sure tbh... maybe? i guess it depends on what you mean by soon', profile: 'anxious-overthinker' },
];

function percentile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Times `iterations` scoring runs on this thread: pure CPU, no database, ledger or network.
 * @param task - how many runs
 * @returns the timings
 */
export default function runCapacityBenchmark(task: { iterations: number }): CapacityReport {
  const times = new Float64Array(task.iterations);
  const started = performance.now();
  for (let i = 0; i < task.iterations; i++) {
    const t0 = performance.now();
    scoreText(SAMPLES[i % SAMPLES.length]);
    times[i] = performance.now() - t0;
  }
  const total = performance.now() - started;
  times.sort();
  return {
    iterations: task.iterations,
    scorer_version: SCORER_VERSION,
    total_ms: round3(total),
    mean_ms: round3(total / task.iterations),
    p50_ms: round3(percentile(times, 0.5)),
    p95_ms: round3(percentile(times, 0.95)),
    p99_ms: round3(percentile(times, 0.99)),
    scores_per_second: Math.round((task.iterations / total) * 1000 * 10) / 10,
  };
}
