import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '../../shared/errors';

/** The request header that carries an enrollment's drill secret. */
export const COACHING_SECRET_HEADER = 'X-COACHING-SECRET';

const SECRET_PREFIX = 'hlc_';
// Longer values are never secrets; they are refused without hashing.
const MAX_SECRET_CHARS = 128;

/**
 * A new drill secret: `hlc_` and 32 random bytes in base64url. Shown once; only its hash is stored.
 * @returns the secret
 */
export function newCoachingSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * The stored form of a secret: SHA-256, hex (256 random bits need no salt or slow hash; as bundle tokens).
 * @param secret - the secret
 * @returns 64 hex characters
 */
export function hashCoachingSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * The secret of a request's header, hashed for lookup.
 * @param header - the header value ('' when absent)
 * @returns the hash
 * @throws AppError 401 coaching_secret_required when absent, 401 invalid_coaching_secret when it cannot be one
 */
export function coachingSecretHashFrom(header: string): string {
  const secret = header.trim();
  if (!secret) throw new AppError(401, 'coaching_secret_required', `Send the enrollment's secret in the ${COACHING_SECRET_HEADER} header.`);
  if (secret.length > MAX_SECRET_CHARS || !secret.startsWith(SECRET_PREFIX)) throw invalidCoachingSecret();
  return hashCoachingSecret(secret);
}

/**
 * The error for a secret that matches no enrollment.
 * @returns the 401
 */
export function invalidCoachingSecret(): AppError {
  return new AppError(401, 'invalid_coaching_secret', 'This coaching secret matches no enrollment.');
}
