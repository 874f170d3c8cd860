import type { AuthorizationRow } from '../../shared/payments/authorization-store';
import { isOwnerSignature } from '../payments/owner-signature';

/** Request header of an enrollment request: the payer's proof that it may receive a (new) drill secret. */
export const COACHING_CLAIM_HEADER = 'X-COACHING-CLAIM';

/**
 * The exact text the paying wallet signs to claim its drill secret, two lines joined by `\n` (no
 * trailing newline), with the payment's nonce as the payment carries it (EVM: the EIP-3009 nonce,
 * 0x and 64 hex digits, lowercase; legacy SOL: the transaction signature):
 *
 *     humanlike: claim coaching secret
 *     nonce: 0x5f0c…
 *
 * A settled authorization is public on chain, so anyone can replay the enrollment request; only
 * the payer can sign this. EVM wallets sign it with EIP-191 `personal_sign`, Solana wallets sign
 * its UTF-8 bytes with ed25519.
 * @param nonce - the payment's nonce
 * @returns the message
 */
export function coachingClaimMessage(nonce: string): string {
  return `humanlike: claim coaching secret\nnonce: ${nonce.startsWith('0x') ? nonce.toLowerCase() : nonce}`;
}

/**
 * Whether an enrollment request proves it comes from the payer. A missing or malformed header is no proof.
 * @param authorization - the enrollment's authorization (payer and nonce)
 * @param header - the X-COACHING-CLAIM value, or empty
 * @param evmRpcUrl - read-only EVM JSON-RPC endpoint, for smart-wallet payers
 * @returns true when the payer signed the claim
 * @throws UnavailableError (503 evm_rpc_unavailable) when a smart wallet's signature needs the chain and it cannot be read
 */
export async function isPayerClaim(authorization: Pick<AuthorizationRow, 'payer' | 'nonce'>, header: string, evmRpcUrl?: string): Promise<boolean> {
  if (!header || header.length > 16_384) return false;
  return isOwnerSignature(authorization.payer, coachingClaimMessage(authorization.nonce), header, evmRpcUrl);
}
