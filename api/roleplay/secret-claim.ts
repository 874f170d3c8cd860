import type { AuthorizationRow } from '../../shared/payments/authorization-store';
import { isPayerClaim, payerClaimMessage } from '../payments/payer-claim';

/** Request header of a room opening: the opener's proof that it may receive its session secret. */
export const ROOM_CLAIM_HEADER = 'X-ROLEPLAY-CLAIM';

const SUBJECT = 'roleplay secret';

/**
 * The text the opener signs to claim its room's session secret: `humanlike: claim roleplay secret\nnonce: <nonce>` ({@link payerClaimMessage}).
 * @param nonce - the payment's nonce
 * @returns the message
 */
export const roomClaimMessage = (nonce: string): string => payerClaimMessage(SUBJECT, nonce);

/**
 * Whether an opening request proves it comes from the payer (X-ROLEPLAY-CLAIM; see {@link isPayerClaim}).
 * @param authorization - the opening's authorization (payer and nonce)
 * @param header - the X-ROLEPLAY-CLAIM value, or empty
 * @param evmRpcUrl - read-only EVM JSON-RPC endpoint, for smart-wallet payers
 * @returns true when the payer signed the claim
 */
export const isOpenerClaim = (authorization: Pick<AuthorizationRow, 'payer' | 'nonce'>, header: string, evmRpcUrl?: string): Promise<boolean> =>
  isPayerClaim(SUBJECT, authorization, header, evmRpcUrl);
