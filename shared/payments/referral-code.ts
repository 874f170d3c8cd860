import { randomBytes } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { runHotStatement, type HotStatement } from '../db/hot-statement';

// Crockford-style alphabet without look-alikes (no I, L, O, U).
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A fresh random referral code (not derived from the wallet, so a code reveals nothing about its owner).
 * @returns the code
 */
export function newReferralCode(): string {
  const bytes = randomBytes(8);
  let code = 'HL-';
  for (const b of bytes) code += ALPHABET[b % 32];
  return code;
}

/**
 * The CTEs that give a wallet its referral code inside a larger statement: `referral_code` holds
 * the wallet's code, made now from the candidate when it had none. It is empty when the candidate
 * collides with another wallet's code (about 1 in 2^40), or when a concurrent statement made this
 * wallet's code after this one's snapshot: the caller then runs {@link referralCodeFor}, which draws again.
 * @param wallet - the parameter holding the wallet, e.g. `$1`
 * @param candidate - the parameter holding a {@link newReferralCode} candidate
 * @returns the CTE list, without `WITH`
 */
export function referralCodeCtes(wallet: string, candidate: string): string {
  return `referral_new AS (
           INSERT INTO referral_codes (wallet, code) VALUES (${wallet}, ${candidate})
           ON CONFLICT DO NOTHING RETURNING code),
         referral_code AS (
           SELECT code FROM referral_new UNION ALL SELECT code FROM referral_codes WHERE wallet = ${wallet} LIMIT 1)`;
}

// Run where a paid call's own statement cannot carry the code (bundle credits): prepared once per
// connection (see runHotStatement).
const REFERRAL_CODE: HotStatement = {
  name: 'referral_code_for',
  text: `WITH ${referralCodeCtes('$1', '$2')} SELECT code FROM referral_code`,
};

/**
 * The paying wallet's own referral code, made on its first paid response and the same ever after.
 * @param db - DataSource or transaction manager
 * @param wallet - the payer (lowercase EVM address or base58 Solana address)
 * @returns the code
 */
export async function referralCodeFor(db: DataSource | EntityManager, wallet: string): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const rows = await runHotStatement<{ code: string }>(db, REFERRAL_CODE, [wallet, newReferralCode()]);
    if (rows[0]) return rows[0].code;
    // A code collision, or this wallet's code made concurrently after the snapshot: draw again.
  }
  throw new Error('could not allocate a referral code');
}
