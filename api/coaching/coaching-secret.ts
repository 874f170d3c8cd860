import { AppError } from '../../shared/errors';
import { hashBearerSecret, mintBearerSecret, readBearerSecret } from '../../shared/secrets/bearer-secret';

/** The request header that carries an enrollment's drill secret. */
export const COACHING_SECRET_HEADER = 'X-COACHING-SECRET';

const SECRET_PREFIX = 'hlc_';

/**
 * A new drill secret: `hlc_` and 32 random bytes in base64url. Shown once; only its hash is stored.
 * @returns the secret
 */
export function newCoachingSecret(): string {
  return mintBearerSecret(SECRET_PREFIX);
}

/**
 * The stored form of a secret: SHA-256, hex (256 random bits need no salt or slow hash; as bundle tokens).
 * @param secret - the secret
 * @returns 64 hex characters
 */
export function hashCoachingSecret(secret: string): string {
  return hashBearerSecret(secret);
}

/**
 * The secret of a request's header, hashed for lookup.
 * @param header - the header value ('' when absent)
 * @returns the hash
 * @throws AppError 401 coaching_secret_required when absent, 401 invalid_coaching_secret when it cannot be one
 */
export function coachingSecretHashFrom(header: string): string {
  const secret = readBearerSecret(header, SECRET_PREFIX);
  if (secret.kind === 'absent') throw new AppError(401, 'coaching_secret_required', `Send the enrollment's secret in the ${COACHING_SECRET_HEADER} header.`);
  if (secret.kind === 'malformed') throw invalidCoachingSecret();
  return secret.hash;
}

/**
 * The error for a secret that matches no enrollment.
 * @returns the 401
 */
export function invalidCoachingSecret(): AppError {
  return new AppError(401, 'invalid_coaching_secret', 'This coaching secret matches no enrollment.');
}
