import { getAddress, isAddress } from 'viem';

/**
 * A wallet address or transaction hash as public output shows it: the first 6 and last 4
 * characters, the one form every public output uses.
 * @param value - address or hash
 * @returns e.g. `0x1234…abcd`; short values are masked whole
 */
export function maskIdentifier(value: string): string {
  if (value.length <= 12) return '…';
  return `${value.slice(0, 6)}…${value.slice(-4)}`;
}

/**
 * A payer's wallet as public output shows it: an EVM address in its EIP-55 checksummed letter case
 * (the ledger keeps it lowercase), then masked like {@link maskIdentifier}; any other wallet (a
 * Solana address) masked as it is. Every public place that shows a wallet uses this, so one wallet
 * reads the same on a certificate, a result, the leaderboard, the feed and a duel.
 * @param wallet - the wallet as stored
 * @returns e.g. `0x3C44…93BC`
 */
export function maskWallet(wallet: string): string {
  return maskIdentifier(isAddress(wallet, { strict: false }) ? getAddress(wallet) : wallet);
}
