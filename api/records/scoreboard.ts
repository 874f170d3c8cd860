import type { DataSource } from 'typeorm';
import { EQ_SESSION_SQL } from '../../shared/eq-sessions';
import { PUBLIC_COLUMNS, profileOf, toPublicSession, type PublicSession, type PublicSessionRow } from './public-row';
import { passRate } from './stats';

/** The overall picture: sessions, pass rate, the best score of each profile, the latest passes. */
export interface Scoreboard {
  generated_at: string;
  /** Settled ledger rows of every product. */
  sessions: number;
  /** Scored replies against a profile (simulate sessions and duel legs): the rows the rest of the board reads. */
  scored_sessions: number;
  passed_sessions: number;
  pass_rate: number | null;
  /** Every profile that has a scored session, best score first. */
  profiles: Array<{ profile: { id: string; name: string }; best_score: number; sessions: number; passed: number; score_distribution: number[] }>;
  recent_passes: PublicSession[];
}

/** Bins of a profile's score distribution, each {@link BIN_WIDTH} EQ points wide. */
export const DISTRIBUTION_BINS = 10;
const BIN_WIDTH = 100 / DISTRIBUTION_BINS;

/** How many recent passes the scoreboard lists. */
export const RECENT_PASSES = 10;

/**
 * Reads the scoreboard from the ledger.
 * @param ds - DataSource
 * @returns the scoreboard
 */
export async function loadScoreboard(ds: DataSource): Promise<Scoreboard> {
  const [totals] = (await ds.query(
    `SELECT count(*)::int AS sessions, count(*) FILTER (WHERE ${EQ_SESSION_SQL})::int AS scored,
            count(*) FILTER (WHERE ${EQ_SESSION_SQL} AND passed IS TRUE)::int AS passed
       FROM ledger_sessions`,
  )) as Array<{ sessions: number; scored: number; passed: number }>;
  const profiles = (await ds.query(
    `SELECT profile, max(score) AS best_score, count(*)::int AS sessions, count(*) FILTER (WHERE passed IS TRUE)::int AS passed
       FROM ledger_sessions WHERE ${EQ_SESSION_SQL}
      GROUP BY profile ORDER BY best_score DESC, profile`,
  )) as Array<{ profile: string; best_score: number; sessions: number; passed: number }>;
  // Ten bins of ten points (0-9.9 ... 90-100, 100 in the last), per profile.
  const bins = (await ds.query(
    `SELECT profile, LEAST(floor(score / ${BIN_WIDTH}), ${DISTRIBUTION_BINS - 1})::int AS bin, count(*)::int AS n
       FROM ledger_sessions WHERE ${EQ_SESSION_SQL} AND score IS NOT NULL
      GROUP BY profile, bin`,
  )) as Array<{ profile: string; bin: number; n: number }>;
  const distribution = new Map<string, number[]>();
  for (const b of bins) {
    const counts = distribution.get(b.profile) ?? Array<number>(DISTRIBUTION_BINS).fill(0);
    counts[Math.max(0, b.bin)] += b.n;
    distribution.set(b.profile, counts);
  }
  const recent = (await ds.query(
    `SELECT ${PUBLIC_COLUMNS} FROM ledger_sessions
      WHERE ${EQ_SESSION_SQL} AND passed IS TRUE
      ORDER BY settled_at DESC, id DESC LIMIT $1`,
    [RECENT_PASSES],
  )) as PublicSessionRow[];
  return {
    generated_at: new Date().toISOString(),
    sessions: totals.sessions,
    scored_sessions: totals.scored,
    passed_sessions: totals.passed,
    pass_rate: passRate(totals.passed, totals.scored),
    profiles: profiles.map((p) => ({
      profile: profileOf(p.profile)!,
      best_score: p.best_score,
      sessions: p.sessions,
      passed: p.passed,
      score_distribution: distribution.get(p.profile) ?? Array<number>(DISTRIBUTION_BINS).fill(0),
    })),
    recent_passes: recent.map(toPublicSession),
  };
}
