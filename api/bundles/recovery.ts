import { address, getBase58Encoder, getPublicKeyFromAddress, isAddress, verifySignature, type SignatureBytes } from '@solana/kit';
import { getAddress, type Hex } from 'viem';
import { isWalletSignature } from '../../shared/payments/wallet-signature';
import { isEvmWallet } from '../payments/bundle-credit/wallet-key';

/** How far a recovery message's timestamp may be from the server's clock, in seconds. */
export const RECOVERY_WINDOW_SECONDS = 300;

/**
 * The exact text a wallet signs to recover a bundle token: three lines joined by `\n` (no trailing
 * newline), the bundle id in lowercase and the timestamp in Unix seconds:
 *
 *     humanlike: recover bundle token
 *     bundle_id: 0b6c3a4e-1f2d-4c5b-9a8e-7d6f5e4c3b2a
 *     timestamp: 1767225600
 *
 * EVM wallets sign it with EIP-191 `personal_sign`; Solana wallets sign its UTF-8 bytes with
 * ed25519 (`signMessage`).
 * @param bundleId - the bundle id
 * @param timestamp - Unix seconds, within {@link RECOVERY_WINDOW_SECONDS} of the server's clock
 * @returns the message
 */
export function recoveryMessage(bundleId: string, timestamp: number): string {
  return `humanlike: recover bundle token\nbundle_id: ${bundleId.toLowerCase()}\ntimestamp: ${timestamp}`;
}

/**
 * Whether `signature` is the owning wallet's signature of `message`: EIP-191 for an EVM wallet (a
 * key's, or with an EVM JSON-RPC endpoint a smart wallet's; see isWalletSignature), ed25519 over
 * the UTF-8 bytes for a Solana wallet (base58 signature of 64 bytes). A malformed signature is
 * simply not valid.
 * @param wallet - the stored owner (lowercase EVM or base58 Solana address)
 * @param message - from {@link recoveryMessage}
 * @param signature - 0x-hex (EVM) or base58 (Solana)
 * @param evmRpcUrl - read-only EVM JSON-RPC endpoint; unset checks EOA signatures only
 * @returns true when the owner signed the message
 * @throws UnavailableError (503 evm_rpc_unavailable) when the chain is needed and cannot be read
 */
export async function isOwnerSignature(wallet: string, message: string, signature: string, evmRpcUrl?: string): Promise<boolean> {
  if (isEvmWallet(wallet)) return isWalletSignature(getAddress(wallet), { message }, signature as Hex, evmRpcUrl);
  try {
    if (!isAddress(wallet)) return false;
    const bytes = getBase58Encoder().encode(signature);
    if (bytes.length !== 64) return false;
    const key = await getPublicKeyFromAddress(address(wallet));
    return await verifySignature(key, bytes as SignatureBytes, new TextEncoder().encode(message));
  } catch {
    return false;
  }
}
