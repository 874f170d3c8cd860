import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { runHotStatement, type HotStatement } from '../../shared/db/hot-statement';

// Crockford-style alphabet without look-alikes (no I, L, O, U).
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function newCode(): string {
  const bytes = randomBytes(8);
  let code = 'HL-';
  for (const b of bytes) code += ALPHABET[b % 32];
  return code;
}

// Run beside every paid call's work: prepared once per connection (see runHotStatement).
const REFERRAL_CODE: HotStatement = {
  name: 'referral_code_for',
  text: `WITH ins AS (
           INSERT INTO referral_codes (wallet, code) VALUES ($1, $2)
           ON CONFLICT DO NOTHING RETURNING code)
         SELECT code FROM ins UNION ALL SELECT code FROM referral_codes WHERE wallet = $1 LIMIT 1`,
};

/**
 * The paying wallet's own referral code, made on its first paid response and the same ever after.
 * Codes are random (not derived from the wallet), so a code reveals nothing about its owner.
 * @param ds - DataSource
 * @param wallet - the payer (lowercase EVM address or base58 Solana address)
 * @returns the code
 */
export async function referralCodeFor(ds: DataSource, wallet: string): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const rows = await runHotStatement<{ code: string }>(ds, REFERRAL_CODE, [wallet, newCode()]);
    if (rows[0]) return rows[0].code;
    // A code collision (about 1 in 2^40) left no row for this wallet: draw again.
  }
  throw new Error('could not allocate a referral code');
}
