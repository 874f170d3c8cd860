import type { DuelRow } from '../../shared/duel/duel-store';
import { AppError } from '../../shared/errors';
import { walletKey } from '../payments/bundle-credit/wallet-key';

/**
 * Why a wallet may not join a duel, or undefined when it may. Checked before any quote or
 * payment, and again (by the database) inside the paid work, where a lost race gives the same
 * answers and nothing is charged.
 * @param duel - the duel, or undefined when no such duel exists
 * @param entry - the joiner's wallet, prompt and profile
 * @returns the refusal (404 duel_not_found, 409 own_duel, 409 duel_resolved, 410 duel_expired,
 *   409 duel_mismatch), or undefined
 */
export function joinRefusal(duel: DuelRow | undefined, entry: { wallet_address: string; prompt_id: number; target_profile: string }): AppError | undefined {
  // A duel whose challenger has not paid yet is not public: it does not exist for others.
  if (!duel || !duel.challengerSettled) return new AppError(404, 'duel_not_found', 'No open duel has this duel_id. Nothing was charged.');
  if (duel.challenger.payer === walletKey(entry.wallet_address)) {
    return new AppError(409, 'own_duel', 'You cannot join your own duel; a second wallet must take the challenge. Nothing was charged.');
  }
  if (duel.status === 'resolved') return new AppError(409, 'duel_resolved', 'This duel already has an opponent and is resolved. Nothing was charged.');
  if (duel.status === 'expired' || duel.pastExpiry) {
    return new AppError(410, 'duel_expired', 'This duel expired without an opponent and can no longer be joined. Nothing was charged.');
  }
  if (duel.promptId !== entry.prompt_id || duel.targetProfile !== entry.target_profile) {
    return new AppError(409, 'duel_mismatch', 'Join with the duel\'s own prompt_id and target_profile. Nothing was charged.', {
      details: { prompt_id: duel.promptId, target_profile: duel.targetProfile },
    });
  }
  return undefined;
}
