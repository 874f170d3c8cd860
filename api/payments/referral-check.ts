import type { DataSource } from 'typeorm';
import { InputRejectedError } from '../../shared/errors';
import { isInReferrerChain } from '../../shared/payments/referrer-chain';

/** Why a valid code does not apply to this wallet (the purchase proceeds without it). */
export type ReferralIgnoredReason = 'already_referred' | 'not_new_wallet';

/** What a purchase's referral code will do, as known before payment. */
export type ReferralIntent = { code: string; eligible: true } | { code: string; eligible: false; reason: ReferralIgnoredReason };

function rejected(code: string, message: string): InputRejectedError {
  return new InputRejectedError(code, message, { fields: [{ path: '/referral_code', rule: code, message }] });
}

/**
 * The normal form of a referral code: trimmed, upper case (codes are `HL-` and 8 Crockford characters).
 * @param code - as sent
 * @returns the code to look up
 */
export function normalizeReferralCode(code: string): string {
  return code.trim().toUpperCase();
}

/**
 * Checks a referral code before payment (section 8: one referrer per wallet, no self or circular
 * referrals, a new wallet's first paid purchase only). Errors are 422s, so nothing is paid for a
 * code that can never apply to this wallet; a code that is valid but comes too late (the wallet
 * has a referrer, or has settled a purchase already) is not an error: the purchase proceeds and
 * the response says the code was ignored. The binding itself happens at settlement, which checks
 * the same rules again.
 * @param ds - DataSource
 * @param wallet - the buyer (stored wallet key)
 * @param code - the normalized code
 * @returns whether it will apply, or why not
 * @throws InputRejectedError 422 invalid_referral_code, self_referral, circular_referral
 */
export async function checkReferralCode(ds: DataSource, wallet: string, code: string): Promise<ReferralIntent> {
  const owners = (await ds.query(`SELECT wallet FROM referral_codes WHERE code = $1`, [code])) as Array<{ wallet: string }>;
  const owner = owners[0]?.wallet;
  if (!owner) throw rejected('invalid_referral_code', 'No wallet has this referral code; check it, or buy without one.');
  if (owner === wallet) throw rejected('self_referral', 'This is your own referral code; a wallet cannot refer itself.');
  if (await isInReferrerChain(ds, owner, wallet)) {
    throw rejected('circular_referral', "This code's owner was referred (directly or through others) by this wallet; referrals cannot go in a circle.");
  }
  const referred = (await ds.query(`SELECT 1 FROM referrals WHERE referred_wallet = $1`, [wallet])) as unknown[];
  if (referred.length > 0) return { code, eligible: false, reason: 'already_referred' };
  const settled = (await ds.query(`SELECT 1 FROM ledger_sessions WHERE payer = $1 LIMIT 1`, [wallet])) as unknown[];
  if (settled.length > 0) return { code, eligible: false, reason: 'not_new_wallet' };
  return { code, eligible: true };
}

const IGNORED_NOTES: Record<ReferralIgnoredReason | 'not_applied', string> = {
  already_referred: 'Ignored: this wallet already has a referrer (one referrer per wallet).',
  not_new_wallet: 'Ignored: a referral code counts only on a new wallet\'s first paid purchase.',
  not_applied: 'Ignored: another purchase of this wallet settled first, so this one was not its first.',
};

/**
 * The `referral` member of a purchase response as stored before settlement.
 * @param intent - from {@link checkReferralCode}
 * @returns `{code, status: 'pending'}` (bound at settlement) or `{code, status: 'ignored', reason, note}`
 */
export function referralBeforeSettlement(intent: ReferralIntent): Record<string, unknown> {
  if (intent.eligible) return { code: intent.code, status: 'pending', note: 'Applied when this purchase settles.' };
  return { code: intent.code, status: 'ignored', reason: intent.reason, note: IGNORED_NOTES[intent.reason] };
}

/**
 * The `referral` member of a delivered purchase (after settlement): a pending referral is
 * `applied` when settlement bound it, else `ignored` (another first purchase won a race).
 * @param ds - DataSource
 * @param authorizationId - the purchase
 * @param stored - the member as stored
 * @returns the member to deliver
 */
export async function referralAfterSettlement(ds: DataSource, authorizationId: string, stored: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (stored.status !== 'pending') return stored;
  const bound = (await ds.query(`SELECT 1 FROM referrals WHERE authorization_id = $1`, [authorizationId])) as unknown[];
  if (bound.length > 0) {
    return { code: stored.code, status: 'applied', note: 'Your referrer earns basic credits worth 50 percent of what this wallet spends.' };
  }
  return { code: stored.code, status: 'ignored', reason: 'not_applied', note: IGNORED_NOTES.not_applied };
}
