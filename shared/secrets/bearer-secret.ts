import { createHash, randomBytes } from 'node:crypto';

// Longer values are never secrets: they are refused without hashing.
const MAX_SECRET_CHARS = 128;

/**
 * A new bearer secret: its kind's prefix (`hlb_` bundle token, `hlr_` role-play, `hlc_` coaching,
 * `crs_` community review) and 32 fresh random bytes in base64url. Each is drawn on its own, never
 * derived from another; it is shown once and only its hash is stored.
 * @param prefix - the kind's prefix, so a leaked secret is recognisable by scanners
 * @returns the secret
 */
export function mintBearerSecret(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

/**
 * The stored form of a bearer secret: SHA-256, hex. 256 random bits need no salt or slow hash to
 * stay unguessable from their hash.
 * @param secret - the secret
 * @returns 64 lowercase hex characters
 */
export function hashBearerSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** What a presented value (a header, an argument) holds: nothing, something that cannot be a secret of the kind, or a secret's hash. */
export type PresentedSecret = { kind: 'absent' } | { kind: 'malformed' } | { kind: 'present'; hash: string };

/**
 * Reads a presented secret of one kind, hashed for lookup.
 * @param value - the presented value ('' when absent)
 * @param prefix - the kind's prefix
 * @returns absent, malformed, or the hash
 */
export function readBearerSecret(value: string, prefix: string): PresentedSecret {
  const secret = value.trim();
  if (!secret) return { kind: 'absent' };
  if (secret.length > MAX_SECRET_CHARS || !secret.startsWith(prefix)) return { kind: 'malformed' };
  return { kind: 'present', hash: hashBearerSecret(secret) };
}
