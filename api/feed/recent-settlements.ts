import type { DataSource } from 'typeorm';
import type { LedgerEntry } from '../../shared/payments/authorization-store';
import { toFeedEvent, type FeedEvent } from '../../shared/payments/feed';

/**
 * The latest settlements, oldest first, in their public form: what a dashboard shows before the
 * first live event arrives.
 * @param ds - DataSource
 * @param limit - how many
 * @returns feed events
 */
export async function recentSettlements(ds: DataSource, limit: number): Promise<FeedEvent[]> {
  // Columns aliased to the LedgerEntry names, so rows need no mapping.
  const rows = (await ds.query(
    `SELECT id, product, tier, profile, score, passed, result_id AS "resultId", network, asset, amount::text AS amount,
            transaction, payer, settled_at AS "settledAt"
       FROM ledger_sessions ORDER BY settled_at DESC, id DESC LIMIT $1`,
    [limit],
  )) as LedgerEntry[];
  return rows.reverse().map(toFeedEvent);
}
