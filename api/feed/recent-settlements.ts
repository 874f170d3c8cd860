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
  const rows = (await ds.query(
    `SELECT id, product, tier, profile, score, passed, result_id, network, asset, amount::text AS amount, transaction, payer, settled_at
       FROM ledger_sessions ORDER BY settled_at DESC, id DESC LIMIT $1`,
    [limit],
  )) as Array<{
    id: string;
    product: string;
    tier: string | null;
    profile: string | null;
    score: number | null;
    passed: boolean | null;
    result_id: string;
    network: string;
    asset: string;
    amount: string;
    transaction: string;
    payer: string;
    settled_at: Date;
  }>;
  return rows.reverse().map((r) => {
    const entry: LedgerEntry = {
      id: r.id,
      product: r.product,
      tier: r.tier,
      profile: r.profile,
      score: r.score,
      passed: r.passed,
      resultId: r.result_id,
      network: r.network,
      asset: r.asset,
      amount: r.amount,
      transaction: r.transaction,
      payer: r.payer,
      settledAt: r.settled_at,
    };
    return toFeedEvent(entry);
  });
}
