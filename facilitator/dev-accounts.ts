import { toHex, type Address, type Hex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';

/** The public test mnemonic every Ethereum dev tool uses (Hardhat, Anvil): never hold real funds with it. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

/** How many accounts the development chain funds. */
export const DEV_ACCOUNT_COUNT = 10;

/** One development account: its address and private key. */
export interface DevAccount {
  address: Address;
  privateKey: Hex;
}

let derived: readonly DevAccount[] | undefined;

/**
 * The first ten accounts of {@link DEV_MNEMONIC} (BIP-44 path m/44'/60'/0'/0/i). Derived once per
 * process: deriving costs about 17 ms per account (2048 PBKDF2 rounds each).
 * Roles on the development chain: 0 deploys the token and signs settlements (pays gas),
 * 1 is the treasury (payTo), 2..9 are funded payers.
 * @returns the accounts, index i at position i
 */
export function devAccounts(): readonly DevAccount[] {
  derived ??= Object.freeze(
    Array.from({ length: DEV_ACCOUNT_COUNT }, (_, i) => {
      const account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: i });
      const key = account.getHdKey().privateKey;
      if (!key) throw new Error(`no private key derived for development account ${i}`);
      return Object.freeze({ address: account.address, privateKey: toHex(key) });
    }),
  );
  return derived;
}
