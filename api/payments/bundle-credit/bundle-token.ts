import { AppError } from '../../../shared/errors';
import { hashBearerSecret, mintBearerSecret, readBearerSecret } from '../../../shared/secrets/bearer-secret';

/** The request header that carries a bundle token. */
export const BUNDLE_TOKEN_HEADER = 'X-BUNDLE-TOKEN';

const TOKEN_PREFIX = 'hlb_';

/**
 * A new bearer token: `hlb_` and 32 random bytes in base64url. Shown once; only its hash is stored.
 * @returns the token
 */
export function newBundleToken(): string {
  return mintBearerSecret(TOKEN_PREFIX);
}

/**
 * The stored form of a token: SHA-256, hex. A token has 256 random bits, so no salt or slow hash
 * is needed for it to be unguessable from its hash.
 * @param token - the bearer token
 * @returns 64 hex characters
 */
export function hashBundleToken(token: string): string {
  return hashBearerSecret(token);
}

/**
 * The token of a request's `X-BUNDLE-TOKEN` header, hashed for lookup.
 * @param header - the header value ('' when absent)
 * @returns the hash
 * @throws AppError 401 bundle_token_required when the header is absent or empty
 * @throws AppError 401 invalid_bundle_token when it cannot be a token
 */
export function bundleTokenHashFrom(header: string): string {
  const token = readBearerSecret(header, TOKEN_PREFIX);
  if (token.kind === 'absent') throw new AppError(401, 'bundle_token_required', `Send the bundle token in the ${BUNDLE_TOKEN_HEADER} header.`);
  if (token.kind === 'malformed') throw invalidBundleToken();
  return token.hash;
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
