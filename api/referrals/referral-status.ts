import type { DataSource } from 'typeorm';

/** The public statistics of a referral code: counts and credits, never wallets or tokens. */
export interface ReferralStatus {
  code: string;
  referred_wallets: number;
  qualifying_purchases: number;
  credits_earned: number;
  credits_delivered: number;
  credits_pending: number;
}

/**
 * The statistics of a referral code.
 * @param ds - DataSource
 * @param code - the normalized code
 * @returns the statistics, or undefined for an unknown code
 */
export async function referralStatus(ds: DataSource, code: string): Promise<ReferralStatus | undefined> {
  const rows = (await ds.query(
    `SELECT c.code,
            count(r.referred_wallet)::int AS referred_wallets,
            coalesce(sum(r.qualifying_purchases), 0)::int AS qualifying_purchases,
            coalesce(sum(r.credits_earned), 0)::int AS credits_earned,
            coalesce(sum(r.credits_delivered), 0)::int AS credits_delivered
       FROM referral_codes c LEFT JOIN referrals r ON r.referrer_wallet = c.wallet
      WHERE c.code = $1
      GROUP BY c.code`,
    [code],
  )) as Array<Omit<ReferralStatus, 'credits_pending'>>;
  const row = rows[0];
  if (!row) return undefined;
  return { ...row, credits_pending: row.credits_earned - row.credits_delivered };
}
