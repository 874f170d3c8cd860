import type { Redis } from 'ioredis';
import { isEqSession, ledgerKindOf } from '../eq-sessions';
import type { LedgerKind } from '../products';
import type { LedgerEntry } from './authorization-store';
import { maskIdentifier, maskWallet } from './mask';

/** One settled session as the public live feed shows it: no full wallet, no text. */
export interface FeedEvent {
  type: 'settlement';
  ledger_id: string;
  product: string;
  /** What was bought: only a `scored_session` (simulate, duel leg) has an EQ score and a verdict. */
  kind: LedgerKind;
  /** The product as people read it ("Scored session", "Bundle purchase", "Coaching pack"...). */
  label: string;
  tier: string | null;
  profile: string | null;
  /** The EQ score of a scored session; null for every other product. */
  score: number | null;
  /** The verdict of a scored session; null for every other product. */
  passed: boolean | null;
  result_id: string;
  network: string;
  amount: string;
  asset: string;
  payer: string;
  transaction: string;
  settled_at: string;
}

/**
 * The Redis pub/sub channel of the live feed (one per deployment prefix).
 * @param prefix - the deployment's queue prefix
 * @returns the channel name
 */
export function feedChannel(prefix: string): string {
  return `${prefix}:feed:settlements`;
}

/**
 * The public form of a ledger entry: wallet and transaction masked to first 6 and last 4; the score
 * and verdict only where they are an EQ score's (a stress test's mean is not).
 * @param entry - the ledger entry
 * @returns the feed event
 */
export function toFeedEvent(entry: LedgerEntry): FeedEvent {
  const eq = isEqSession(entry.product);
  return {
    type: 'settlement',
    ledger_id: entry.id,
    product: entry.product,
    ...ledgerKindOf(entry.product),
    tier: entry.tier,
    profile: entry.profile,
    score: eq ? entry.score : null,
    passed: eq ? entry.passed : null,
    result_id: entry.resultId,
    network: entry.network,
    amount: entry.amount,
    asset: entry.asset,
    payer: maskWallet(entry.payer),
    transaction: maskIdentifier(entry.transaction),
    settled_at: entry.settledAt.toISOString(),
  };
}

/**
 * Publishes a settlement to every web process's feed subscribers. Best effort: the ledger row is
 * already committed, and a feed that missed one event is not a lost payment.
 * @param redis - a normal (non-subscriber) connection
 * @param prefix - the deployment's queue prefix
 * @param entry - the ledger entry
 */
export async function publishSettlement(redis: Redis, prefix: string, entry: LedgerEntry): Promise<void> {
  await redis.publish(feedChannel(prefix), JSON.stringify(toFeedEvent(entry)));
}
