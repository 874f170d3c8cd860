import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { OperatorRole } from '../db/entities/operator-credential.entity';

export type { OperatorRole } from '../db/entities/operator-credential.entity';

/** The roles, in the order the CLI lists them. */
export const OPERATOR_ROLES: readonly OperatorRole[] = ['operator', 'admin'];

/**
 * Every token starts with this, so secret scanners and log reviews can recognise one. The rest is
 * 32 random bytes in base64url (43 characters): 256 bits, never guessable, never derived.
 */
export const TOKEN_PREFIX = 'hlo_';

const TOKEN_PATTERN = /^hlo_[A-Za-z0-9_-]{43}$/;

/** A credential as listed: never its token, never its hash. */
export interface CredentialInfo {
  id: string;
  role: OperatorRole;
  label: string | null;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

/** Why a presented token was refused (401), or the credential it belongs to. */
export type CredentialCheck =
  | { ok: true; credential: CredentialInfo }
  | { ok: false; reason: 'malformed' | 'unknown' | 'expired' | 'revoked' };

/**
 * The SHA-256 (hex) of a token: the only form the database holds.
 * @param token - the bearer token
 * @returns 64 lowercase hex characters
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

interface Row {
  id: string;
  role: OperatorRole;
  token_hash: string;
  label: string | null;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

const info = (r: Row): CredentialInfo => ({
  id: r.id,
  role: r.role,
  label: r.label,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
});

/**
 * Mints a credential: a fresh random token, of which only the hash is stored.
 * @param ds - DataSource
 * @param role - operator or admin
 * @param ttlSeconds - lifetime from now
 * @param label - optional note (who it is for)
 * @returns the credential and its token; the token is shown once and cannot be recovered
 */
export async function mintCredential(ds: DataSource, role: OperatorRole, ttlSeconds: number, label?: string): Promise<{ credential: CredentialInfo; token: string }> {
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const rows = (await ds.query(
    `INSERT INTO operator_credentials (role, token_hash, label, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))
     RETURNING id, role, token_hash, label, created_at, expires_at, revoked_at`,
    [role, hashToken(token), label ?? null, ttlSeconds],
  )) as Row[];
  return { credential: info(rows[0]), token };
}

/**
 * Revokes a credential at once (a revoked credential is refused on its next request).
 * @param ds - DataSource
 * @param id - the credential's id
 * @returns the credential, or undefined when there is no credential with that id
 */
export async function revokeCredential(ds: DataSource, id: string): Promise<CredentialInfo | undefined> {
  const rows = (await ds.query(
    `UPDATE operator_credentials SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1
     RETURNING id, role, token_hash, label, created_at, expires_at, revoked_at`,
    [id],
  )) as [Row[], number];
  return rows[0][0] ? info(rows[0][0]) : undefined;
}

/**
 * Every credential, newest first, without tokens or hashes.
 * @param ds - DataSource
 * @returns the credentials
 */
export async function listCredentials(ds: DataSource): Promise<CredentialInfo[]> {
  const rows = (await ds.query(
    `SELECT id, role, token_hash, label, created_at, expires_at, revoked_at FROM operator_credentials ORDER BY created_at DESC, id`,
  )) as Row[];
  return rows.map(info);
}

/**
 * Checks a presented token. The lookup is by the token's SHA-256, so the database compares hashes,
 * never the secret: how long a comparison takes tells a caller nothing about the token (it cannot
 * choose hash prefixes). The stored hash is still compared again in constant time, so no code path
 * compares secrets with an early-exit equality.
 * @param ds - DataSource
 * @param token - the presented token
 * @returns the credential, or why it is refused
 */
export async function checkToken(ds: DataSource, token: string): Promise<CredentialCheck> {
  if (!TOKEN_PATTERN.test(token)) return { ok: false, reason: 'malformed' };
  const hash = hashToken(token);
  const rows = (await ds.query(
    `SELECT id, role, token_hash, label, created_at, expires_at, revoked_at, expires_at <= now() AS expired
       FROM operator_credentials WHERE token_hash = $1`,
    [hash],
  )) as Array<Row & { expired: boolean }>;
  const row = rows[0];
  if (!row || !timingSafeEqual(Buffer.from(row.token_hash, 'hex'), Buffer.from(hash, 'hex'))) return { ok: false, reason: 'unknown' };
  if (row.revoked_at) return { ok: false, reason: 'revoked' };
  if (row.expired) return { ok: false, reason: 'expired' };
  return { ok: true, credential: info(row) };
}
