import type { EntityManager } from 'typeorm';
import { runHotStatement, type HotStatement } from '../db/hot-statement';
import { PRODUCT_TERMS, PRODUCTS } from '../products';

/** The asset name of the legacy SOL rail (amounts in lamports); every other asset is USDC. */
const SOL_ASSET = 'SOL';

// Referral chains are paths (one referrer per wallet); this only bounds a corrupted table.
const MAX_CHAIN_DEPTH = 10_000;

/** What settlement knows about the purchase being settled. */
export interface SettledPurchase {
  authorizationId: string;
  /** Lowercase EVM address or base58 Solana address. */
  payer: string;
  /** `SOL` (lamports) or the USDC token address (atomic units). */
  asset: string;
  /** Atomic units, decimal string. */
  amount: string;
}

/**
 * Serializes the settlements of one payer (until the transaction ends), so "is this wallet new?"
 * and the referral binding cannot race another settlement of the same wallet.
 * @param tx - the settlement transaction
 * @param payer - the payer
 */
export async function lockPayer(tx: EntityManager, payer: string): Promise<void> {
  await tx.query(`SELECT ${PAYER_LOCK_SQL('$1')}`, [payer]);
}

/**
 * The SQL expression that takes {@link lockPayer}'s lock, for a statement that takes it itself
 * (the settlement's own UPDATE takes it in the same round trip).
 * @param payer - an SQL expression naming the payer
 * @returns the expression
 */
export const PAYER_LOCK_SQL = (payer: string): string => `pg_advisory_xact_lock(hashtextextended('humanlike:payer:' || ${payer}, 0))`;

/**
 * Whether `wallet` appears in the referrer chain above `start` (start's referrer, its referrer, ...):
 * then `start` was (transitively) referred by `wallet`, and `wallet` taking start's code would close a cycle.
 * @param db - DataSource or transaction manager
 * @param start - the code owner
 * @param wallet - the wallet that wants to be referred by `start`
 * @returns true for a circular referral
 */
export async function isInReferrerChain(db: Pick<EntityManager, 'query'>, start: string, wallet: string): Promise<boolean> {
  const rows = (await db.query(
    `WITH RECURSIVE chain (wallet, depth) AS (
       SELECT referrer_wallet, 1 FROM referrals WHERE referred_wallet = $1
       UNION
       SELECT r.referrer_wallet, c.depth + 1 FROM referrals r JOIN chain c ON r.referred_wallet = c.wallet WHERE c.depth < $3)
     SELECT 1 FROM chain WHERE wallet = $2 LIMIT 1`,
    [start, wallet, MAX_CHAIN_DEPTH],
  )) as unknown[];
  return rows.length > 0;
}

/**
 * Binds the payer to the owner of `code` when this settlement is the payer's first (no settled
 * ledger row yet), the payer has no referrer, the code is not its own, and the binding closes no
 * cycle. Rules were checked before payment too; this re-check at settlement settles races (two
 * first purchases, two wallets referring each other). Call it before the ledger row is written,
 * holding {@link lockPayer}. A purchase whose referral no longer qualifies simply settles unreferred.
 * @param tx - the settlement transaction
 * @param purchase - the purchase being settled
 * @param code - the referral code the purchase carried
 * @returns whether the referral was bound
 */
export async function bindReferral(tx: EntityManager, purchase: SettledPurchase, code: string): Promise<boolean> {
  const owners = (await tx.query(`SELECT wallet FROM referral_codes WHERE code = $1`, [code])) as Array<{ wallet: string }>;
  const referrer = owners[0]?.wallet;
  if (!referrer || referrer === purchase.payer) return false;
  const settledBefore = (await tx.query(`SELECT 1 FROM ledger_sessions WHERE payer = $1 LIMIT 1`, [purchase.payer])) as unknown[];
  if (settledBefore.length > 0) return false;
  // One global lock for bindings only (rare): two wallets binding each other concurrently would
  // each see no cycle in the other's snapshot.
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('humanlike:referrals', 0))`);
  if (await isInReferrerChain(tx, referrer, purchase.payer)) return false;
  const inserted = (await tx.query(
    `INSERT INTO referrals (referred_wallet, referrer_wallet, authorization_id) VALUES ($1, $2, $3)
     ON CONFLICT ON CONSTRAINT pk_referrals DO NOTHING RETURNING referred_wallet`,
    [purchase.payer, referrer, purchase.authorizationId],
  )) as unknown[];
  return inserted.length > 0;
}

// Run in every settlement: prepared once per connection (see runHotStatement).
const ACCRUE_REFERRAL_REWARD: HotStatement = {
  name: 'accrue_referral_reward',
  text: `WITH before AS (SELECT referred_wallet, credits_earned FROM referrals WHERE referred_wallet = $1 FOR UPDATE)
     UPDATE referrals r
        SET spent_usdc_units = r.spent_usdc_units + $2,
            spent_lamports = r.spent_lamports + $3,
            qualifying_purchases = r.qualifying_purchases + 1,
            credits_earned = GREATEST(r.credits_earned,
              div((r.spent_usdc_units + $2) * $4, 100 * $5::numeric) + div((r.spent_lamports + $3) * $4, 100 * $6::numeric)),
            updated_at = now()
       FROM before
      WHERE r.referred_wallet = before.referred_wallet
      RETURNING r.credits_earned - before.credits_earned AS added`,
};

/**
 * Adds a settled purchase of a referred wallet to its referral: the spend in its currency, one
 * qualifying purchase, and the credits earned so far, recomputed from the cumulative spend
 * (`floor(spend * reward_pct / 100 / basic price)` per currency), so a remainder is never lost
 * to rounding but carried to the next purchase. Runs in the settlement transaction, which
 * happens once per authorization: credits are neither lost nor doubled when settlement is retried.
 * @param tx - the settlement transaction
 * @param purchase - the purchase being settled
 * @returns the credits this purchase added (0 when the payer has no referrer)
 */
export async function accrueReferralReward(tx: EntityManager, purchase: SettledPurchase): Promise<number> {
  const sol = purchase.asset === SOL_ASSET;
  const pct = PRODUCT_TERMS.referralRewardPct;
  const updated = await runHotStatement<{ added: number }>(tx, ACCRUE_REFERRAL_REWARD, [purchase.payer, sol ? '0' : purchase.amount, sol ? purchase.amount : '0', pct, PRODUCTS.simulate.tiers.basic.price.usdcUnits, PRODUCTS.simulate.tiers.basic.price.lamports]);
  return updated[0]?.added ?? 0;
}
