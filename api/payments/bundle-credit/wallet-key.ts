/**
 * The stored form of a wallet address, as payments record their payer: an EVM address in
 * lowercase (addresses are case-insensitive; the checksum is display only), a base58 Solana
 * address as is (base58 is case-sensitive).
 * @param address - a `wallet_address` from a request body
 * @returns the key bundles, referral codes and referrals are stored under
 */
export function walletKey(address: string): string {
  return /^0x[0-9a-fA-F]{40}$/.test(address) ? address.toLowerCase() : address;
}

/**
 * Whether a stored wallet is an EVM address (else a Solana address).
 * @param wallet - a stored wallet key
 * @returns true for an EVM address
 */
export function isEvmWallet(wallet: string): boolean {
  return /^0x[0-9a-f]{40}$/.test(wallet);
}
