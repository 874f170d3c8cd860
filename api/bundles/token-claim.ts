import type { AuthorizationRow } from '../../shared/payments/authorization-store';
import { isPayerClaim, payerClaimMessage } from '../payments/payer-claim';

/** Request header of a bundle purchase: the buyer's proof that it may receive the token. */
export const BUNDLE_CLAIM_HEADER = 'X-BUNDLE-CLAIM';

const SUBJECT = 'bundle token';

/**
 * The text the buyer signs to claim its bundle token: `humanlike: claim bundle token\nnonce: <nonce>` ({@link payerClaimMessage}).
 * @param nonce - the payment's nonce
 * @returns the message
 */
export const claimMessage = (nonce: string): string => payerClaimMessage(SUBJECT, nonce);

/**
 * Whether a purchase request proves it comes from the payer (X-BUNDLE-CLAIM; see {@link isPayerClaim}).
 * @param authorization - the purchase's authorization (payer and nonce)
 * @param header - the X-BUNDLE-CLAIM value, or empty
 * @param evmRpcUrl - read-only EVM JSON-RPC endpoint, for smart-wallet payers
 * @returns true when the payer signed the claim
 */
export const isBuyerClaim = (authorization: Pick<AuthorizationRow, 'payer' | 'nonce'>, header: string, evmRpcUrl?: string): Promise<boolean> =>
  isPayerClaim(SUBJECT, authorization, header, evmRpcUrl);
