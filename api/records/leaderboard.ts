import type { DataSource } from 'typeorm';
import { EQ_SESSION_SQL } from '../../shared/eq-sessions';
import { maskWallet } from '../../shared/payments/mask';
import { profileOf } from './public-row';

/** One bot on the leaderboard: its best EQ score, with the session that reached it. */
export interface LeaderboardEntry {
  rank: number;
  /** The wallet's first 6 and last 4 characters. */
  wallet: string;
  best_score: number;
  passed: boolean | null;
  profile: { id: string; name: string } | null;
  tier: string | null;
  /** The public result of the best session (GET /api/results/{result_id}). */
  result_id: string;
  achieved_at: string;
}

/** The leaderboard body. */
export interface Leaderboard {
  generated_at: string;
  profile: string | null;
  limit: number;
  cache_seconds: number;
  entries: LeaderboardEntry[];
}

/** How long a leaderboard is served from memory (and may be cached by clients): a new best shows within it. */
export const LEADERBOARD_CACHE_SECONDS = 10;

interface BestRow {
  payer: string;
  score: number;
  passed: boolean | null;
  profile: string | null;
  tier: string | null;
  result_id: string;
  settled_at: Date;
}

/**
 * The top wallets by best EQ score among settled scored replies against a profile (simulate
 * sessions and duel legs; a stress test's mean or a script check's adherence is no EQ score). One row
 * per wallet; a tie goes to the wallet that reached the score first.
 * @param ds - DataSource
 * @param options - how many rows, and an optional profile to rank within
 * @returns the leaderboard
 */
export async function loadLeaderboard(ds: DataSource, options: { limit: number; profile: string | null }): Promise<Leaderboard> {
  const rows = (await ds.query(
    `SELECT payer, score, passed, profile, tier, result_id, settled_at FROM (
       SELECT DISTINCT ON (payer) payer, score, passed, profile, tier, result_id::text AS result_id, settled_at
         FROM ledger_sessions
        WHERE ${EQ_SESSION_SQL} AND ($1::text IS NULL OR profile = $1)
        ORDER BY payer, score DESC, settled_at ASC, id ASC
     ) best
     ORDER BY score DESC, settled_at ASC, result_id ASC
     LIMIT $2`,
    [options.profile, options.limit],
  )) as BestRow[];
  return {
    generated_at: new Date().toISOString(),
    profile: options.profile,
    limit: options.limit,
    cache_seconds: LEADERBOARD_CACHE_SECONDS,
    entries: rows.map((row, i) => ({
      rank: i + 1,
      wallet: maskWallet(row.payer),
      best_score: row.score,
      passed: row.passed,
      profile: profileOf(row.profile),
      tier: row.tier,
      result_id: row.result_id,
      achieved_at: new Date(row.settled_at).toISOString(),
    })),
  };
}
