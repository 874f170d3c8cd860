import { address, getBase58Encoder, getPublicKeyFromAddress, isAddress, verifySignature, type SignatureBytes } from '@solana/kit';
import { createPublicClient, getAddress, http, isErc6492Signature, verifyMessage, type Address, type Hex } from 'viem';
import { UnavailableError } from '../../shared/errors';
import { isEvmWallet } from './wallet-key';

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
 * Whether `signature` is the owning wallet's signature of `message`: EIP-191 for an EVM wallet, by
 * recovery for an externally owned account (viem `verifyMessage`) and, with an EVM JSON-RPC
 * endpoint, through the chain for a smart wallet (ERC-1271 `isValidSignature`, or ERC-6492 for one
 * not deployed yet; viem's public `verifyMessage`); ed25519 over the UTF-8 bytes for a Solana
 * wallet (base58 signature of 64 bytes). A malformed signature is simply not valid.
 * @param wallet - the stored owner (lowercase EVM or base58 Solana address)
 * @param message - from {@link recoveryMessage}
 * @param signature - 0x-hex (EVM) or base58 (Solana)
 * @param evmRpcUrl - read-only EVM JSON-RPC endpoint; unset checks EOA signatures only
 * @returns true when the owner signed the message
 * @throws UnavailableError (503 evm_rpc_unavailable) when the chain is needed and cannot be read
 */
export async function isOwnerSignature(wallet: string, message: string, signature: string, evmRpcUrl?: string): Promise<boolean> {
  if (isEvmWallet(wallet)) return isEvmOwnerSignature(getAddress(wallet), message, signature, evmRpcUrl);
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

const EVM_RPC_TIMEOUT_MS = 8_000;

async function isEvmOwnerSignature(wallet: Address, message: string, signature: string, evmRpcUrl?: string): Promise<boolean> {
  if (!/^0x([0-9a-fA-F]{2})+$/.test(signature)) return false;
  const hex = signature as Hex;
  if (hex.length === 132 && (await verifyMessage({ address: wallet, message, signature: hex }).catch(() => false))) return true;
  if (!evmRpcUrl) return false;
  const client = createPublicClient({ transport: http(evmRpcUrl, { timeout: EVM_RPC_TIMEOUT_MS, retryCount: 1 }) });
  const unavailable = (err: unknown) =>
    new UnavailableError('evm_rpc_unavailable', 'The EVM node needed to check this smart-wallet signature cannot be read; retry later.', {
      headers: { 'Retry-After': '5' },
      cause: err,
    });
  // Asked first, and on its own: viem's verifyMessage answers false when the node fails, which
  // would tell a smart wallet its signature is wrong while the node is down.
  const code = await client.getCode({ address: wallet }).catch((err: unknown) => {
    throw unavailable(err);
  });
  // An account without code signs with its key (checked above), unless the signature deploys it (ERC-6492).
  if (!code && !isErc6492Signature(hex)) return false;
  return client.verifyMessage({ address: wallet, message, signature: hex }).catch((err: unknown) => {
    throw unavailable(err);
  });
}
