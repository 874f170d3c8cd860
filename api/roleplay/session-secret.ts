import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '../../shared/errors';

/** The request header that carries a participant's session secret (turns and the room view). */
export const SESSION_SECRET_HEADER = 'X-ROLEPLAY-SECRET';

const SECRET_PREFIX = 'hlr_';
// Longer values are never secrets; they are refused without hashing.
const MAX_SECRET_CHARS = 128;

/**
 * A new session secret: `hlr_` and 32 fresh random bytes in base64url. Each participant's secret
 * is drawn on its own, so the joiner's is never derived from the opener's. Shown once; only its
 * hash is stored.
 * @returns the secret
 */
export function newSessionSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * The stored form of a secret: SHA-256, hex (256 random bits need no salt or slow hash).
 * @param secret - the secret
 * @returns 64 hex characters
 */
export function hashSessionSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * The hash of a request's session secret header, or undefined when none was sent.
 * @param header - the header value ('' when absent)
 * @returns the hash, or undefined
 * @throws AppError 401 invalid_session_secret when the value cannot be a secret
 */
export function sessionSecretHashFrom(header: string): string | undefined {
  const secret = header.trim();
  if (!secret) return undefined;
  if (secret.length > MAX_SECRET_CHARS || !secret.startsWith(SECRET_PREFIX)) throw invalidSessionSecret();
  return hashSessionSecret(secret);
}

/**
 * The error for a secret that belongs to neither participant of the room.
 * @returns the 401
 */
export function invalidSessionSecret(): AppError {
  return new AppError(401, 'invalid_session_secret', `The ${SESSION_SECRET_HEADER} header is not a session secret of this room.`);
}
