import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../shared/config';
import { runHotStatement, type HotStatement } from '../../shared/db/hot-statement';

/** The consented reply that enters the free corpus with the round (never the incoming message). */
export interface CorpusDraft {
  text: string;
  profile?: string;
  delaySeconds?: number;
}

/** The outcome of trying to reserve a free round. */
export type Reservation =
  | { ok: true; used: number; wishlistSubmitted: boolean; corpusEntryId: string }
  | { ok: false; reason: 'cap_reached' | 'wishlist_required'; used: number };

// One statement, one round trip: a new caller is inserted with the round already counted (only
// when the rules allow a first round without a wishlist; a caller with a wishlist has a row
// already); an existing caller's row is updated under its row lock, and the WHERE re-checks the
// rules on the locked row, so N racing calls never reserve more than the cap. The corpus row is
// written in the same statement, so a counted round always has its reply. Exported for the bench's
// floor-pg baseline, which runs this very statement. Parameters: caller hash, score limit,
// wishlist-required-from, job id, profile, text, delay.
export const RESERVE_ROUND: HotStatement = {
  name: 'free_round_reserve',
  text: `
  WITH reserved AS (
    INSERT INTO free_callers AS c (caller_hash, scores_used, reservations, consented_at)
    SELECT $1, 1, 1, now()
     WHERE ($2::int > 0 AND $3::int > 1) OR EXISTS (SELECT 1 FROM free_callers WHERE caller_hash = $1)
    ON CONFLICT (caller_hash) DO UPDATE
       SET scores_used = c.scores_used + 1,
           reservations = c.reservations + 1,
           consented_at = COALESCE(c.consented_at, now()),
           updated_at = now()
     WHERE c.scores_used < $2::int
       AND (c.scores_used + 1 < $3::int OR c.wishlist_submitted)
    RETURNING c.scores_used, c.wishlist_submitted
  ), entry AS (
    INSERT INTO free_corpus_entries (job_id, caller_hash, profile, text, response_delay_seconds)
    SELECT $4, $1, $5, $6, $7 FROM reserved
    RETURNING id
  )
  SELECT reserved.scores_used, reserved.wishlist_submitted, entry.id AS entry_id
    FROM reserved, entry`,
};

/**
 * Reserves one lifetime free round and records the consented reply in the free corpus, atomically
 * and in one round trip. The round is counted before scoring and given back if scoring fails.
 * @param dataSource - initialized DataSource
 * @param callerHash - the caller key
 * @param rules - the `freeTier` section of the config
 * @param draft - the reply that enters the free corpus
 * @param jobId - the id of the round's scoring job, recorded with the reply
 * @returns the reservation (used count after it, the corpus row), or why not
 */
export async function reserveFreeRound(
  dataSource: DataSource,
  callerHash: string,
  rules: Pick<AppConfig['freeTier'], 'scoreLimit' | 'wishlistRequiredFrom'>,
  draft: CorpusDraft,
  jobId: string,
): Promise<Reservation> {
  const rows = await runHotStatement<{ scores_used: number; wishlist_submitted: boolean; entry_id: string }>(dataSource, RESERVE_ROUND, [
    callerHash,
    rules.scoreLimit,
    rules.wishlistRequiredFrom,
    jobId,
    draft.profile ?? null,
    draft.text,
    draft.delaySeconds ?? null,
  ]);
  const row = rows[0];
  if (row) return { ok: true, used: row.scores_used, wishlistSubmitted: row.wishlist_submitted, corpusEntryId: row.entry_id };
  const state = (await dataSource.query(`SELECT scores_used FROM free_callers WHERE caller_hash = $1`, [callerHash])) as Array<{
    scores_used: number;
  }>;
  const used = state[0]?.scores_used ?? 0;
  return { ok: false, reason: used >= rules.scoreLimit ? 'cap_reached' : 'wishlist_required', used };
}

/**
 * Gives a reserved round back after scoring failed (queue down, timeout, scorer error), and
 * removes the reply the reservation recorded: an unscored round leaves nothing in the corpus.
 * @param dataSource - initialized DataSource
 * @param callerHash - the caller key
 * @param corpusEntryId - the corpus row of the reservation
 */
export async function releaseFreeRound(dataSource: DataSource, callerHash: string, corpusEntryId: string): Promise<void> {
  await dataSource.query(
    `WITH removed AS (DELETE FROM free_corpus_entries WHERE id = $2 AND caller_hash = $1)
     UPDATE free_callers SET scores_used = scores_used - 1, updated_at = now() WHERE caller_hash = $1 AND scores_used > 0`,
    [callerHash, corpusEntryId],
  );
}
