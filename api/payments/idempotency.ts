import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';

/** An Idempotency-Key's binding: the request it first came with and that request's payment. */
export interface IdempotencyBinding {
  requestHash: string;
  authorizationId: string;
}

// Keys longer than this are refused by the route schema's header check.
export const MAX_IDEMPOTENCY_KEY_CHARS = 255;

/**
 * The stored form of an Idempotency-Key: a hash of the path and the key, so keys are never stored
 * and one key on two endpoints never collides.
 * @param path - request path
 * @param key - the opaque key
 * @returns 64 hex characters
 */
export function idempotencyKeyHash(path: string, key: string): string {
  return createHash('sha256').update(`${path}\n${key}`).digest('hex');
}

/**
 * Looks a key up.
 * @param ds - DataSource
 * @param keyHash - from {@link idempotencyKeyHash}
 * @returns the binding, or undefined
 */
export async function findIdempotencyBinding(ds: DataSource, keyHash: string): Promise<IdempotencyBinding | undefined> {
  const rows = (await ds.query(`SELECT request_hash, authorization_id FROM idempotency_records WHERE key_hash = $1`, [keyHash])) as Array<{
    request_hash: string;
    authorization_id: string;
  }>;
  return rows[0] ? { requestHash: rows[0].request_hash, authorizationId: rows[0].authorization_id } : undefined;
}

/**
 * Binds a key to a request and its authorization; the first binding wins.
 * @param ds - DataSource
 * @param keyHash - from {@link idempotencyKeyHash}
 * @param binding - the request hash and authorization
 * @returns the binding in force (this one, or the one made first)
 */
export async function bindIdempotencyKey(ds: DataSource, keyHash: string, binding: IdempotencyBinding): Promise<IdempotencyBinding> {
  await ds.query(
    `INSERT INTO idempotency_records (key_hash, request_hash, authorization_id) VALUES ($1, $2, $3)
     ON CONFLICT ON CONSTRAINT pk_idempotency_records DO NOTHING`,
    [keyHash, binding.requestHash, binding.authorizationId],
  );
  const bound = await findIdempotencyBinding(ds, keyHash);
  if (!bound) throw new Error('idempotency record vanished after insert');
  return bound;
}
