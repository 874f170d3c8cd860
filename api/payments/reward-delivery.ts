import type { DataSource } from 'typeorm';
import { runHotStatement, type HotStatement } from '../../shared/db/hot-statement';
import type { AuthorizationRow } from '../../shared/payments/authorization-store';
import { hashBundleToken, newBundleToken } from './bundle-credit/bundle-token';
import type { Delivery } from './paid-work';

/** A reward bundle as a response lists it: not secret (recovering its token needs the wallet's signature). */
export interface RewardBundleRef {
  bundle_id: string;
  credits: number;
}

// Run at every paid call's first delivery: prepared once per connection (see runHotStatement).
const DELIVER_PENDING_REWARDS: HotStatement = {
  name: 'deliver_pending_rewards',
  text: `WITH due AS (
       SELECT referred_wallet, credits_earned - credits_delivered AS credits FROM referrals
        WHERE referrer_wallet = $1 AND credits_earned > credits_delivered
        ORDER BY referred_wallet
        FOR UPDATE),
     delivered AS (
       UPDATE referrals r SET credits_delivered = r.credits_delivered + due.credits, updated_at = now()
         FROM due WHERE r.referred_wallet = due.referred_wallet
       RETURNING due.credits),
     total AS (SELECT sum(credits)::int AS credits FROM delivered)
     INSERT INTO bundles (token_hash, wallet, plan, source, credits_total, credits_remaining, authorization_id, token_issued_at)
     SELECT $2, $1, 'referral-reward', 'referral-reward', credits, credits, $3, now() FROM total WHERE credits > 0
     RETURNING id, credits_total`,
};

/**
 * Turns the referrer's pending reward credits into one reward bundle (basic credits owned by the
 * referrer) and mints its token, in one statement: the credits are marked delivered exactly when
 * the bundle exists, and concurrent deliveries to one referrer never deliver a credit twice (the
 * rows are locked and re-checked). One statement, not a transaction of three: every paid call's
 * first delivery runs it, and most payers have nothing pending.
 * @param ds - DataSource
 * @param authorization - the referrer's settled paid call being delivered for the first time
 * @returns the new token and its bundle, or none when nothing was pending
 */
export async function deliverPendingRewards(ds: DataSource, authorization: AuthorizationRow): Promise<{ tokens: string[]; bundles: RewardBundleRef[] }> {
  const token = newBundleToken();
  const rows = await runHotStatement<{ id: string; credits_total: number }>(ds, DELIVER_PENDING_REWARDS, [authorization.payer, hashBundleToken(token), authorization.id]);
  if (rows.length === 0) return { tokens: [], bundles: [] };
  return { tokens: [token], bundles: rows.map((r) => ({ bundle_id: r.id, credits: r.credits_total })) };
}

/**
 * The reward bundles delivered with a paid call (ids and credits only).
 * @param ds - DataSource
 * @param authorizationId - the paid call
 * @returns the bundles
 */
export async function rewardBundlesOf(ds: DataSource, authorizationId: string): Promise<RewardBundleRef[]> {
  const rows = (await ds.query(
    `SELECT id, credits_total FROM bundles WHERE authorization_id = $1 AND source = 'referral-reward' ORDER BY created_at`,
    [authorizationId],
  )) as Array<{ id: string; credits_total: number }>;
  return rows.map((r) => ({ bundle_id: r.id, credits: r.credits_total }));
}

/**
 * The referral-reward members of a paid response (section 8: rewards arrive as bundle tokens in
 * the referrer's next paid response). On the first delivery the pending credits become a reward
 * bundle whose token is in `reward_bundle_tokens`, shown once (rewards that became due after the
 * settlement looked wait for the next paid response); a replay shows no token, and
 * `reward_bundles` names the bundles so a lost token can be recovered (POST /api/bundle/recover).
 * @param ds - DataSource
 * @param authorization - the settled paid call
 * @param delivery - whether this is its first delivery
 * @returns `reward_bundle_tokens` and `reward_bundles`
 */
export async function rewardDeliveryExtras(ds: DataSource, authorization: AuthorizationRow, delivery: Delivery): Promise<Record<string, unknown>> {
  // A first delivery's reward bundle is the one it makes now: reward bundles are made at first deliveries only.
  if (delivery.first) {
    // The settlement already looked: nothing waiting, no statement (most payers, most calls).
    if (delivery.rewardsDue === false) return { reward_bundle_tokens: [], reward_bundles: [] };
    const { tokens, bundles } = await deliverPendingRewards(ds, authorization);
    return { reward_bundle_tokens: tokens, reward_bundles: bundles };
  }
  return { reward_bundle_tokens: [], reward_bundles: await rewardBundlesOf(ds, authorization.id) };
}
