import type { AuthorizationRow } from '../../shared/payments/authorization-store';
import { isOwnerSignature } from './recovery';

/** Request header of a bundle purchase: the buyer's proof that it may receive the token. */
export const BUNDLE_CLAIM_HEADER = 'X-BUNDLE-CLAIM';

/**
 * The exact text the paying wallet signs to claim its bundle token, two lines joined by `\n` (no
 * trailing newline), with the payment's nonce as the payment carries it (EVM: the EIP-3009 nonce,
 * 0x and 64 hex digits, lowercase; legacy SOL: the transaction signature):
 *
 *     humanlike: claim bundle token
 *     nonce: 0x5f0c…
 *
 * A settled authorization is public on chain, so anyone can rebuild the payment header and replay
 * the purchase; only the payer can sign this. EVM wallets sign it with EIP-191 `personal_sign`,
 * Solana wallets sign its UTF-8 bytes with ed25519.
 * @param nonce - the payment's nonce
 * @returns the message
 */
export function claimMessage(nonce: string): string {
  return `humanlike: claim bundle token\nnonce: ${nonce.startsWith('0x') ? nonce.toLowerCase() : nonce}`;
}

/**
 * Whether a purchase request proves it comes from the payer: its claim header is the paying
 * wallet's signature of {@link claimMessage} over the payment's nonce. A missing or malformed
 * header is simply no proof.
 * @param authorization - the purchase's authorization (payer and nonce)
 * @param header - the X-BUNDLE-CLAIM value, or empty
 * @param evmRpcUrl - read-only EVM JSON-RPC endpoint, for smart-wallet payers
 * @returns true when the payer signed the claim
 * @throws UnavailableError (503 evm_rpc_unavailable) when a smart wallet's signature needs the chain and it cannot be read
 */
export async function isBuyerClaim(authorization: Pick<AuthorizationRow, 'payer' | 'nonce'>, header: string, evmRpcUrl?: string): Promise<boolean> {
  if (!header || header.length > 16_384) return false;
  return isOwnerSignature(authorization.payer, claimMessage(authorization.nonce), header, evmRpcUrl);
}
