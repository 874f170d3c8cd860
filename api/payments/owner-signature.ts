import { address, getBase58Encoder, getPublicKeyFromAddress, isAddress, verifySignature, type SignatureBytes } from '@solana/kit';
import { getAddress, type Hex } from 'viem';
import { isWalletSignature } from '../../shared/payments/wallet-signature';
import { isEvmWallet } from './bundle-credit/wallet-key';

/**
 * Whether `signature` is the owning wallet's signature of `message`: EIP-191 for an EVM wallet (a
 * key's, or with an EVM JSON-RPC endpoint a smart wallet's; see isWalletSignature), ed25519 over
 * the UTF-8 bytes for a Solana wallet (base58 signature of 64 bytes). A malformed signature is
 * simply not valid.
 * @param wallet - the stored owner (lowercase EVM or base58 Solana address)
 * @param message - the exact signed text
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
