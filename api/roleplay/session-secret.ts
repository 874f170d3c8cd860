import { AppError } from '../../shared/errors';
import { hashBearerSecret, mintBearerSecret, readBearerSecret } from '../../shared/secrets/bearer-secret';

/** The request header that carries a participant's session secret (turns and the room view). */
export const SESSION_SECRET_HEADER = 'X-ROLEPLAY-SECRET';

const SECRET_PREFIX = 'hlr_';

/**
 * A new session secret: `hlr_` and 32 fresh random bytes in base64url. Each participant's secret
 * is drawn on its own, so the joiner's is never derived from the opener's. Shown once; only its
 * hash is stored.
 * @returns the secret
 */
export function newSessionSecret(): string {
  return mintBearerSecret(SECRET_PREFIX);
}

/**
 * The stored form of a secret: SHA-256, hex (256 random bits need no salt or slow hash).
 * @param secret - the secret
 * @returns 64 hex characters
 */
export function hashSessionSecret(secret: string): string {
  return hashBearerSecret(secret);
}

/**
 * The hash of a request's session secret header, or undefined when none was sent.
 * @param header - the header value ('' when absent)
 * @returns the hash, or undefined
 * @throws AppError 401 invalid_session_secret when the value cannot be a secret
 */
export function sessionSecretHashFrom(header: string): string | undefined {
  const secret = readBearerSecret(header, SECRET_PREFIX);
  if (secret.kind === 'absent') return undefined;
  if (secret.kind === 'malformed') throw invalidSessionSecret();
  return secret.hash;
}

/**
 * The error for a secret that belongs to neither participant of the room.
 * @returns the 401
 */
export function invalidSessionSecret(): AppError {
  return new AppError(401, 'invalid_session_secret', `The ${SESSION_SECRET_HEADER} header is not a session secret of this room.`);
}
