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
  profiles: Array<{ profile: { id: string; name: string }; best_score: number; sessions: number; passed: number }>;
  recent_passes: PublicSession[];
}

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
    profiles: profiles.map((p) => ({ profile: profileOf(p.profile)!, best_score: p.best_score, sessions: p.sessions, passed: p.passed })),
    recent_passes: recent.map(toPublicSession),
  };
}
