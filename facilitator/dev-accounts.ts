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

/**
 * How many accounts of the development chain submit settlements: account 0 and the accounts at
 * indices 10 and up of {@link DEV_MNEMONIC}. One account sends one transaction at a time; several
 * let settlements under load be sent side by side, as a production facilitator's keys do.
 */
export const DEV_SETTLER_COUNT = 8;

/** Index of the first extra settlement account (after the ten funded accounts). */
const FIRST_EXTRA_SETTLER = DEV_ACCOUNT_COUNT;

let derived: readonly DevAccount[] | undefined;
let settlers: readonly DevAccount[] | undefined;

function derive(index: number): DevAccount {
  const account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index });
  const key = account.getHdKey().privateKey;
  if (!key) throw new Error(`no private key derived for development account ${index}`);
  return Object.freeze({ address: account.address, privateKey: toHex(key) });
}

/**
 * The first ten accounts of {@link DEV_MNEMONIC} (BIP-44 path m/44'/60'/0'/0/i). Derived once per
 * process: deriving costs about 17 ms per account (2048 PBKDF2 rounds each).
 * Roles on the development chain: 0 deploys the token and signs settlements (pays gas),
 * 1 is the treasury (payTo), 2..9 are funded payers.
 * @returns the accounts, index i at position i
 */
export function devAccounts(): readonly DevAccount[] {
  derived ??= Object.freeze(Array.from({ length: DEV_ACCOUNT_COUNT }, (_, i) => derive(i)));
  return derived;
}

/**
 * The development chain's settlement accounts: account 0, then indices 10 and up (funded with ETH
 * for gas at genesis, holding no USDC). Derived once per process.
 * @returns {@link DEV_SETTLER_COUNT} accounts, account 0 first
 */
export function devSettlerAccounts(): readonly DevAccount[] {
  settlers ??= Object.freeze([devAccounts()[0], ...Array.from({ length: DEV_SETTLER_COUNT - 1 }, (_, i) => derive(FIRST_EXTRA_SETTLER + i))]);
  return settlers;
}
