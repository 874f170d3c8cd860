import { timingSafeEqual } from 'node:crypto';
import { hashBearerSecret, mintBearerSecret } from '../../shared/secrets/bearer-secret';

/**
 * A new session secret: `crs_` and 32 random bytes in base64url. Shown once; only its hash is kept.
 * @returns the secret
 */
export function mintSessionSecret(): string {
  return mintBearerSecret('crs_');
}

/**
 * The stored form of a session secret.
 * @param secret - the secret
 * @returns SHA-256, 64 lowercase hex characters
 */
export function hashSessionSecret(secret: string): string {
  return hashBearerSecret(secret);
}

/**
 * Whether a presented secret is the session's, compared in constant time.
 * @param presented - the secret the caller sent
 * @param storedHash - the session's stored hash
 * @returns true when it matches
 */
export function secretMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashSessionSecret(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
