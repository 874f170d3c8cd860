import { performance } from 'node:perf_hooks';
import { SCORER_VERSION, scoreText } from '../../../shared/scoring';
import type { ScoreInput } from '../../../shared/scoring';

/** Timings of one benchmark run, in milliseconds; the percentiles and the mean are per score. */
export interface CapacityReport {
  /** As asked: how many characters of reply text to score. */
  iterations: number;
  /** Characters of reply text actually scored (the last score may go past `iterations`). */
  characters_scored: number;
  /** Whole scores timed. */
  scores: number;
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
 * Times whole scores of the samples, in turn, until they add up to `iterations` characters of reply
 * text: pure CPU, no database, ledger or network. One iteration is one character, not one score,
 * so that the contract's maximum (100000) is about 900 scores, well under 2 s of one thread, where
 * 100000 scores took about 13 s and held the benchmark thread for anyone who asked.
 * @param task - how many characters of reply text to score
 * @returns the timings
 */
export default function runCapacityBenchmark(task: { iterations: number }): CapacityReport {
  const measured: number[] = [];
  let characters = 0;
  const started = performance.now();
  for (let i = 0; characters < task.iterations; i++) {
    const sample = SAMPLES[i % SAMPLES.length];
    const t0 = performance.now();
    scoreText(sample);
    measured.push(performance.now() - t0);
    characters += sample.text.length;
  }
  const total = performance.now() - started;
  const times = Float64Array.from(measured).sort();
  return {
    iterations: task.iterations,
    characters_scored: characters,
    scores: times.length,
    scorer_version: SCORER_VERSION,
    total_ms: round3(total),
    mean_ms: round3(total / times.length),
    p50_ms: round3(percentile(times, 0.5)),
    p95_ms: round3(percentile(times, 0.95)),
    p99_ms: round3(percentile(times, 0.99)),
    scores_per_second: Math.round((times.length / total) * 1000 * 10) / 10,
  };
}
