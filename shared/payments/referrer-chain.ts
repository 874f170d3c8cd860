import type { EntityManager } from 'typeorm';

/**
 * Whether `wallet` appears in the referrer chain above `start` (start's referrer, its referrer, ...):
 * then `start` was (transitively) referred by `wallet`, and `wallet` taking start's code would close
 * a cycle. The same SQL function (`referrer_chain_contains`) re-checks this at settlement.
 * @param db - DataSource or transaction manager
 * @param start - the code owner
 * @param wallet - the wallet that wants to be referred by `start`
 * @returns true for a circular referral
 */
export async function isInReferrerChain(db: Pick<EntityManager, 'query'>, start: string, wallet: string): Promise<boolean> {
  const rows = (await db.query(`SELECT referrer_chain_contains($1, $2) AS found`, [start, wallet])) as Array<{ found: boolean }>;
  return rows[0].found;
}
