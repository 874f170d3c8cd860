import type { AuthorizationRow } from '../../shared/payments/authorization-store';
import { isPayerClaim, payerClaimMessage } from '../payments/payer-claim';

/** Request header of an enrollment request: the payer's proof that it may receive a (new) drill secret. */
export const COACHING_CLAIM_HEADER = 'X-COACHING-CLAIM';

const SUBJECT = 'coaching secret';

/**
 * The text the payer signs to claim its drill secret: `humanlike: claim coaching secret\nnonce: <nonce>` ({@link payerClaimMessage}).
 * @param nonce - the payment's nonce
 * @returns the message
 */
export const coachingClaimMessage = (nonce: string): string => payerClaimMessage(SUBJECT, nonce);

/**
 * Whether an enrollment request proves it comes from the payer (X-COACHING-CLAIM; see {@link isPayerClaim}).
 * @param authorization - the enrollment's authorization (payer and nonce)
 * @param header - the X-COACHING-CLAIM value, or empty
 * @param evmRpcUrl - read-only EVM JSON-RPC endpoint, for smart-wallet payers
 * @returns true when the payer signed the claim
 */
export const isEnrollmentClaim = (authorization: Pick<AuthorizationRow, 'payer' | 'nonce'>, header: string, evmRpcUrl?: string): Promise<boolean> =>
  isPayerClaim(SUBJECT, authorization, header, evmRpcUrl);
