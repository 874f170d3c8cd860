import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../shared/config';

/** The outcome of trying to reserve a free round. */
export type Reservation =
  | { ok: true; used: number; reservation: number; wishlistSubmitted: boolean }
  | { ok: false; reason: 'cap_reached' | 'wishlist_required'; used: number };

/**
 * Makes sure the caller's row exists.
 * @param dataSource - initialized DataSource
 * @param callerHash - the caller key
 */
export async function ensureFreeCaller(dataSource: DataSource, callerHash: string): Promise<void> {
  await dataSource.query(`INSERT INTO free_callers (caller_hash) VALUES ($1) ON CONFLICT (caller_hash) DO NOTHING`, [callerHash]);
}

/**
 * Reserves one lifetime free round atomically. A single conditional UPDATE takes the row lock, so
 * concurrent calls from one caller serialize and re-check the condition: N racing calls never
 * reserve more than the cap. The round is counted before scoring and given back if scoring fails.
 * @param dataSource - initialized DataSource
 * @param callerHash - the caller key
 * @param rules - the `freeTier` section of the config
 * @returns the reservation (used count after it, and the reservation ordinal that names the job), or why not
 */
export async function reserveFreeRound(
  dataSource: DataSource,
  callerHash: string,
  rules: Pick<AppConfig['freeTier'], 'scoreLimit' | 'wishlistRequiredFrom'>,
): Promise<Reservation> {
  await ensureFreeCaller(dataSource, callerHash);
  const rows = (await dataSource.query(
    `UPDATE free_callers
        SET scores_used = scores_used + 1,
            reservations = reservations + 1,
            consented_at = COALESCE(consented_at, now()),
            updated_at = now()
      WHERE caller_hash = $1
        AND scores_used < $2
        AND (scores_used + 1 < $3 OR wishlist_submitted)
      RETURNING scores_used, reservations, wishlist_submitted`,
    [callerHash, rules.scoreLimit, rules.wishlistRequiredFrom],
  )) as [Array<{ scores_used: number; reservations: number; wishlist_submitted: boolean }>, number];
  const row = rows[0][0];
  if (row) return { ok: true, used: row.scores_used, reservation: row.reservations, wishlistSubmitted: row.wishlist_submitted };
  const state = (await dataSource.query(`SELECT scores_used FROM free_callers WHERE caller_hash = $1`, [callerHash])) as Array<{
    scores_used: number;
  }>;
  const used = state[0]?.scores_used ?? 0;
  return { ok: false, reason: used >= rules.scoreLimit ? 'cap_reached' : 'wishlist_required', used };
}

/**
 * Gives a reserved round back after scoring failed (queue down, timeout, scorer error).
 * @param dataSource - initialized DataSource
 * @param callerHash - the caller key
 */
export async function releaseFreeRound(dataSource: DataSource, callerHash: string): Promise<void> {
  await dataSource.query(
    `UPDATE free_callers SET scores_used = scores_used - 1, updated_at = now() WHERE caller_hash = $1 AND scores_used > 0`,
    [callerHash],
  );
}
