import { getAddress } from 'viem';
import { maskIdentifier } from '../../shared/payments/mask';

/**
 * A stored wallet as public output shows it: first 6 and last 4 characters (EVM checksummed first).
 * @param wallet - stored wallet key
 * @returns e.g. `0xAbC1…9f3E`
 */
export function maskedWallet(wallet: string): string {
  return maskIdentifier(/^0x[0-9a-f]{40}$/.test(wallet) ? getAddress(wallet) : wallet);
}
