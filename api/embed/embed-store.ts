import type { DataSource } from 'typeorm';

/** A bundle as the embedded check sees it, with the stored check of the request's key, if any. */
export interface EmbedLookup {
  bundleId: string;
  creditsRemaining: number;
  /** The unexpired check stored under this key for this bundle. */
  stored?: { checkId: string; fingerprint: string; response: Record<string, unknown> };
}

interface RawLookup {
  bundle_id: string;
  credits_remaining: number;
  check_id: string | null;
  fingerprint: string | null;
  response: Record<string, unknown> | null;
}

/**
 * Finds the bundle of a token and the check stored under the key, in one round trip.
 * @param ds - DataSource
 * @param tokenHash - the hash of the request's bundle token
 * @param keyHash - the stored form of the key, or null for a keyless call
 * @returns the bundle and its stored check, or undefined when no bundle has this token
 */
export async function lookupEmbedCheck(ds: DataSource, tokenHash: string, keyHash: string | null): Promise<EmbedLookup | undefined> {
  const rows = (await ds.query(
    `SELECT b.id AS bundle_id, b.credits_remaining, e.id AS check_id, e.fingerprint, e.response
       FROM bundles b
       LEFT JOIN embed_checks e ON e.bundle_id = b.id AND e.key_hash = $2 AND e.expires_at > now()
      WHERE b.token_hash = $1`,
    [tokenHash, keyHash],
  )) as RawLookup[];
  const row = rows[0];
  if (!row) return undefined;
  return {
    bundleId: row.bundle_id,
    creditsRemaining: row.credits_remaining,
    stored: row.check_id !== null && row.fingerprint !== null && row.response !== null ? { checkId: row.check_id, fingerprint: row.fingerprint, response: row.response } : undefined,
  };
}

/** What a charge ends in. */
export type ChargeOutcome = { kind: 'charged'; checkId: string; creditsRemaining: number } | { kind: 'exhausted' } | { kind: 'key_taken' };

/**
 * Takes one credit and stores the answer under the key as one statement, so one transaction:
 * either both happen or neither (a failure leaves the key free and the credit unspent). The
 * conditional decrement never takes a credit that is not there; a second answer for the same key
 * fails the unique constraint, which undoes the decrement with it.
 * @param ds - DataSource
 * @param input - bundle, key hash (null: keyless), fingerprint, mode, answer, end of the replay window
 * @returns charged (with the check id and credits left), exhausted, or key_taken
 */
export async function chargeEmbedCheck(
  ds: DataSource,
  input: { bundleId: string; keyHash: string | null; fingerprint: string; mode: string; response: Record<string, unknown>; expiresAtMs: number },
): Promise<ChargeOutcome> {
  try {
    const rows = (await ds.query(
      `WITH debit AS (
         UPDATE bundles SET credits_remaining = credits_remaining - 1, updated_at = now()
          WHERE id = $1 AND credits_remaining > 0
          RETURNING id, credits_remaining),
       stored AS (
         INSERT INTO embed_checks (bundle_id, key_hash, fingerprint, mode, response, expires_at)
         SELECT id, $2, $3, $4, $5::jsonb, to_timestamp($6::double precision / 1000) FROM debit
         RETURNING id)
       SELECT d.credits_remaining, s.id AS check_id FROM debit d CROSS JOIN stored s`,
      [input.bundleId, input.keyHash, input.fingerprint, input.mode, JSON.stringify(input.response), input.expiresAtMs],
    )) as Array<{ credits_remaining: number; check_id: string }>;
    const row = rows[0];
    return row ? { kind: 'charged', checkId: row.check_id, creditsRemaining: row.credits_remaining } : { kind: 'exhausted' };
  } catch (err) {
    if (isKeyTaken(err)) return { kind: 'key_taken' };
    throw err;
  }
}

function isKeyTaken(err: unknown): boolean {
  const e = err as { code?: unknown; constraint?: unknown; driverError?: { code?: unknown; constraint?: unknown } };
  const code = e.driverError?.code ?? e.code;
  const constraint = e.driverError?.constraint ?? e.constraint;
  return code === '23505' && constraint === 'uq_embed_checks_key';
}
