// The owner-signature check moved to the payment kit, which coaching claims use too.
export { isOwnerSignature } from '../payments/owner-signature';

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
