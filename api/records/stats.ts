import type { Queue } from 'bullmq';
import type { DataSource } from 'typeorm';
import { EQ_SESSION_SQL } from '../../shared/eq-sessions';

/** Live aggregate statistics; counts and sums only, never anything per wallet. */
export interface Stats {
  generated_at: string;
  sessions: { total: number; last_24h: number; last_7d: number; last_30d: number };
  /** Settled ledger rows that are scored replies against a profile (simulate sessions and duel legs); other products are in `sessions` and `volume` only. */
  scored_sessions: number;
  passed_sessions: number;
  /** passed / scored, 0..1, four decimals; null before the first scored session. */
  pass_rate: number | null;
  /** Settled volume per network and asset, in the asset's atomic units (decimal string). */
  volume: Array<{ network: string; asset: string; amount: string; sessions: number }>;
  /** Distinct paying wallets that settled in each window (counts only). */
  active_wallets: { last_24h: number; last_7d: number; last_30d: number };
  /** Jobs of the scoring queue by state, or null when Redis did not answer in time. */
  queue: { scoring: { waiting: number; active: number; delayed: number; failed: number } } | null;
}

const QUEUE_DEADLINE_MS = 1_000;

/**
 * The ratio passed / scored, rounded to four decimals.
 * @param passed - passed sessions
 * @param scored - scored sessions
 * @returns the rate, or null when nothing was scored
 */
export function passRate(passed: number, scored: number): number | null {
  return scored === 0 ? null : Math.round((passed / scored) * 10_000) / 10_000;
}

async function queueHealth(queue: Queue): Promise<Stats['queue']> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), QUEUE_DEADLINE_MS);
  });
  try {
    const counts = queue.getJobCounts('waiting', 'active', 'delayed', 'failed').then(
      (c) => ({ scoring: { waiting: c.waiting ?? 0, active: c.active ?? 0, delayed: c.delayed ?? 0, failed: c.failed ?? 0 } }),
      () => null,
    );
    return await Promise.race([counts, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads the statistics from the ledger, and the scoring queue's counts from Redis (best effort).
 * @param ds - DataSource
 * @param scoringQueue - the scoring queue
 * @returns the statistics
 */
export async function loadStats(ds: DataSource, scoringQueue: Queue): Promise<Stats> {
  const [totals] = (await ds.query(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE settled_at > now() - interval '24 hours')::int AS s24,
            count(*) FILTER (WHERE settled_at > now() - interval '7 days')::int AS s7,
            count(*) FILTER (WHERE settled_at > now() - interval '30 days')::int AS s30,
            count(*) FILTER (WHERE ${EQ_SESSION_SQL})::int AS scored,
            count(*) FILTER (WHERE ${EQ_SESSION_SQL} AND passed IS TRUE)::int AS passed,
            count(DISTINCT payer) FILTER (WHERE settled_at > now() - interval '24 hours')::int AS w24,
            count(DISTINCT payer) FILTER (WHERE settled_at > now() - interval '7 days')::int AS w7,
            count(DISTINCT payer) FILTER (WHERE settled_at > now() - interval '30 days')::int AS w30
       FROM ledger_sessions`,
  )) as Array<Record<'total' | 's24' | 's7' | 's30' | 'scored' | 'passed' | 'w24' | 'w7' | 'w30', number>>;
  const volume = (await ds.query(
    `SELECT network, asset, sum(amount)::text AS amount, count(*)::int AS sessions
       FROM ledger_sessions GROUP BY network, asset ORDER BY network, asset`,
  )) as Stats['volume'];
  return {
    generated_at: new Date().toISOString(),
    sessions: { total: totals.total, last_24h: totals.s24, last_7d: totals.s7, last_30d: totals.s30 },
    scored_sessions: totals.scored,
    passed_sessions: totals.passed,
    pass_rate: passRate(totals.passed, totals.scored),
    volume,
    active_wallets: { last_24h: totals.w24, last_7d: totals.w7, last_30d: totals.w30 },
    queue: await queueHealth(scoringQueue),
  };
}
