import type { AuthorizationRow } from '../../shared/payments/authorization-store';
import { isOwnerSignature } from '../payments/owner-signature';

/** Request header of a room opening: the opener's proof that it may receive its session secret. */
export const ROOM_CLAIM_HEADER = 'X-ROLEPLAY-CLAIM';

/**
 * The exact text the paying wallet signs to claim its room's session secret, two lines joined by
 * `\n` (no trailing newline), with the payment's nonce as the payment carries it (EVM: the EIP-3009
 * nonce, 0x and 64 hex digits, lowercase; legacy SOL: the transaction signature):
 *
 *     humanlike: claim roleplay secret
 *     nonce: 0x5f0c…
 *
 * EVM wallets sign it with EIP-191 `personal_sign`, Solana wallets its UTF-8 bytes with ed25519.
 * @param nonce - the payment's nonce
 * @returns the message
 */
export function roomClaimMessage(nonce: string): string {
  return `humanlike: claim roleplay secret\nnonce: ${nonce.startsWith('0x') ? nonce.toLowerCase() : nonce}`;
}

/**
 * Whether an opening request proves it comes from the payer (a settled payment is public on chain,
 * so anyone can rebuild the payment header; only the payer can sign this). A missing or malformed
 * header is simply no proof.
 * @param authorization - the opening's authorization (payer and nonce)
 * @param header - the X-ROLEPLAY-CLAIM value, or empty
 * @param evmRpcUrl - read-only EVM JSON-RPC endpoint, for smart-wallet payers
 * @returns true when the payer signed the claim
 * @throws UnavailableError (503 evm_rpc_unavailable) when a smart wallet's signature needs the chain and it cannot be read
 */
export async function isOpenerClaim(authorization: Pick<AuthorizationRow, 'payer' | 'nonce'>, header: string, evmRpcUrl?: string): Promise<boolean> {
  if (!header || header.length > 16_384) return false;
  return isOwnerSignature(authorization.payer, roomClaimMessage(authorization.nonce), header, evmRpcUrl);
}
