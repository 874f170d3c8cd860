import { timingSafeEqual } from 'node:crypto';
import { AppError } from '../../shared/errors';
import { hashBearerSecret, mintBearerSecret, readBearerSecret } from '../../shared/secrets/bearer-secret';

/** One program's token: the header that carries it and the prefix that marks it. */
export interface ProgramTokenKind {
  /** The request header, e.g. `X-AEI-WORDING-TOKEN`. */
  header: string;
  /** The prefix, so a leaked token is recognisable by scanners. */
  prefix: string;
  /** What a person of the program is called in messages ("rater", "participant"). */
  holder: string;
}

/** The wording review's rater token. */
export const WORDING_TOKEN: ProgramTokenKind = { header: 'X-AEI-WORDING-TOKEN', prefix: 'hlw_', holder: 'rater' };

/** The pilot's participant token. */
export const PILOT_TOKEN: ProgramTokenKind = { header: 'X-AEI-PILOT-TOKEN', prefix: 'hlp_', holder: 'participant' };

/** A company's program token (the company program: terms, usage, guide allowance, outcomes). */
export const COMPANY_TOKEN: ProgramTokenKind = { header: 'X-AEI-COMPANY-TOKEN', prefix: 'hlc_', holder: 'company' };

/** Shape of a program token: the kind's prefix and 43 base64url characters (256 bits). */
export const tokenPattern = (kind: ProgramTokenKind) => `^${kind.prefix}[A-Za-z0-9_-]{43}$`;

/**
 * A new token of a kind, shown once; only {@link hashProgramToken} of it is stored.
 * @param kind - the program's token kind
 * @returns the token
 */
export function mintProgramToken(kind: ProgramTokenKind): string {
  return mintBearerSecret(kind.prefix);
}

/**
 * The stored form of a token.
 * @param token - the token
 * @returns SHA-256, 64 lowercase hex characters
 */
export function hashProgramToken(token: string): string {
  return hashBearerSecret(token);
}

/**
 * The 401 of a program path: the same status whether the token is missing, malformed, unknown or
 * deleted, so a caller never learns which tokens existed.
 * @param kind - the program's token kind
 * @param present - whether a value was sent
 * @returns the error
 */
export function programTokenRefused(kind: ProgramTokenKind, present: boolean): AppError {
  return present
    ? new AppError(401, 'program_token_invalid', `The ${kind.header} header is not a current ${kind.holder} token (it may have been deleted).`)
    : new AppError(401, 'program_token_required', `Send the ${kind.holder} token in the ${kind.header} header.`);
}

/**
 * The hash of a request's token, to look the holder up by; a missing or malformed value is refused.
 * @param kind - the program's token kind
 * @param header - the header value ('' when absent)
 * @returns the SHA-256 of the token
 * @throws AppError 401 program_token_required or program_token_invalid
 */
export function presentedTokenHash(kind: ProgramTokenKind, header: string): string {
  const secret = readBearerSecret(header, kind.prefix);
  if (secret.kind === 'absent') throw programTokenRefused(kind, false);
  if (secret.kind === 'malformed') throw programTokenRefused(kind, true);
  return secret.hash;
}

/**
 * Whether a stored hash is the presented one. Rows are looked up by hash (a caller cannot choose
 * hash prefixes, so the index lookup's timing says nothing about a token); the stored value is
 * compared again in constant time so that no path compares secrets with an early-exit equality.
 * @param storedHash - the row's hash
 * @param presentedHash - the hash of what was sent
 * @returns true when they match
 */
export function tokenHashMatches(storedHash: string, presentedHash: string): boolean {
  const a = Buffer.from(storedHash, 'hex');
  const b = Buffer.from(presentedHash, 'hex');
  return a.length === 32 && a.length === b.length && timingSafeEqual(a, b);
}
