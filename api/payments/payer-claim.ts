import type { AuthorizationRow } from '../../shared/payments/authorization-store';
import { isOwnerSignature } from './owner-signature';

/**
 * The exact text a paying wallet signs to claim what its payment bought but a replay must not get
 * (a bundle token, a room's or an enrollment's secret), two lines joined by `\n` (no trailing
 * newline), with the payment's nonce as the payment carries it (EVM: the EIP-3009 nonce, 0x and 64
 * hex digits, lowercase; legacy SOL: the transaction signature):
 *
 *     humanlike: claim <subject>
 *     nonce: 0x5f0c…
 *
 * A settled authorization is public on chain, so anyone can rebuild the payment and replay the
 * request; only the payer can sign this. EVM wallets sign it with EIP-191 `personal_sign`, Solana
 * wallets its UTF-8 bytes with ed25519.
 * @param subject - what is claimed, e.g. `bundle token`
 * @param nonce - the payment's nonce
 * @returns the message
 */
export function payerClaimMessage(subject: string, nonce: string): string {
  return `humanlike: claim ${subject}\nnonce: ${nonce.startsWith('0x') ? nonce.toLowerCase() : nonce}`;
}

/**
 * Whether a request proves it comes from the payer: its claim header is the paying wallet's
 * signature of {@link payerClaimMessage}. A missing or malformed header is simply no proof.
 * @param subject - what is claimed
 * @param authorization - the purchase's authorization (payer and nonce)
 * @param header - the claim header's value, or empty
 * @param evmRpcUrl - read-only EVM JSON-RPC endpoint, for smart-wallet payers
 * @returns true when the payer signed the claim
 * @throws UnavailableError (503 evm_rpc_unavailable) when a smart wallet's signature needs the chain and it cannot be read
 */
export async function isPayerClaim(subject: string, authorization: Pick<AuthorizationRow, 'payer' | 'nonce'>, header: string, evmRpcUrl?: string): Promise<boolean> {
  if (!header || header.length > 16_384) return false;
  return isOwnerSignature(authorization.payer, payerClaimMessage(subject, authorization.nonce), header, evmRpcUrl);
}
