import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '../../../shared/errors';

/** The request header that carries a bundle token. */
export const BUNDLE_TOKEN_HEADER = 'X-BUNDLE-TOKEN';

const TOKEN_PREFIX = 'hlb_';
// Longer values are never tokens; they are refused without hashing.
const MAX_TOKEN_CHARS = 128;

/**
 * A new bearer token: `hlb_` and 32 random bytes in base64url. Shown once; only its hash is stored.
 * @returns the token
 */
export function newBundleToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * The stored form of a token: SHA-256, hex. A token has 256 random bits, so no salt or slow hash
 * is needed for it to be unguessable from its hash.
 * @param token - the bearer token
 * @returns 64 hex characters
 */
export function hashBundleToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * The token of a request's `X-BUNDLE-TOKEN` header, hashed for lookup.
 * @param header - the header value ('' when absent)
 * @returns the hash
 * @throws AppError 401 bundle_token_required when the header is absent or empty
 * @throws AppError 401 invalid_bundle_token when it cannot be a token
 */
export function bundleTokenHashFrom(header: string): string {
  const token = header.trim();
  if (!token) throw new AppError(401, 'bundle_token_required', `Send the bundle token in the ${BUNDLE_TOKEN_HEADER} header.`);
  if (token.length > MAX_TOKEN_CHARS || !token.startsWith(TOKEN_PREFIX)) throw invalidBundleToken();
  return hashBundleToken(token);
}

/**
 * The error for a token that matches no bundle (never issued, or replaced by a recovery).
 * @returns the 401
 */
export function invalidBundleToken(): AppError {
  return new AppError(
    401,
    'invalid_bundle_token',
    'This bundle token is not valid (unknown, or replaced by a recovery); recover a new one with POST /api/bundle/recover.',
  );
}
