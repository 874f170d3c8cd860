import { isAddress, isSignature, type Address, type Signature } from '@solana/kit';

/** The x402 v1 network name of Solana mainnet, the default legacy network id. */
export const DEFAULT_LEGACY_SOL_NETWORK = 'solana';

/** The x402 v1 network name of Solana devnet. */
export const LEGACY_SOL_DEVNET = 'solana-devnet';

/**
 * A legacy SOL payment proof (described in docs/payments.md), whichever way it arrived: decoded from an
 * `X-PAYMENT` header or built from a body's `tx_hash` and `wallet_address`. It only names a
 * transaction; `verifySolTransfer` checks it against the chain.
 */
export interface LegacySolPayment {
  readonly x402Version: 1;
  readonly scheme: 'exact';
  /** The configured legacy network id (`solana`, `solana-devnet`). */
  readonly network: string;
  readonly payload: {
    /** The transaction id: base58 of the fee payer's 64-byte signature. */
    readonly signature: Signature;
    /** The wallet that paid: base58 of a 32-byte public key. */
    readonly payer: Address;
  };
}

/**
 * Whether a value is a transaction signature: base58 of 64 bytes. Wraps @solana/kit's
 * `isSignature`, which in 8.4.0 throws (instead of answering false) on a character outside the
 * base58 alphabet; `isAddress` already catches that.
 * @param value - anything from the wire
 * @returns true for a well-formed signature
 */
export function isSolSignature(value: unknown): value is Signature {
  if (typeof value !== 'string') return false;
  try {
    return isSignature(value);
  } catch {
    return false;
  }
}

/**
 * Whether a value is a Solana address: base58 of 32 bytes.
 * @param value - anything from the wire
 * @returns true for a well-formed address
 */
export function isSolAddress(value: unknown): value is Address {
  return typeof value === 'string' && isAddress(value);
}
