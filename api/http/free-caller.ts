import type { DataSource } from 'typeorm';

/**
 * Makes sure the free-tier caller's row exists. The row is shared by the free score (its lifetime
 * rounds) and the wishlist (its items unlock the third round).
 * @param dataSource - initialized DataSource
 * @param callerHash - the caller key
 */
export async function ensureFreeCaller(dataSource: DataSource, callerHash: string): Promise<void> {
  await dataSource.query(`INSERT INTO free_callers (caller_hash) VALUES ($1) ON CONFLICT (caller_hash) DO NOTHING`, [callerHash]);
}
