import type { DataSource } from 'typeorm';

/** Settled sessions to write straight into the ledger (with their settled authorizations). */
export interface SeedSessions {
  /** The payer as the ledger stores it (lowercase EVM address). */
  payer: string;
  profile: string;
  /** One EQ score per session, oldest first; the count of sessions. */
  scores: number[];
  /** Pass threshold: a session passes at or above it. */
  passAt?: number;
  /** Frozen targets of every session (null: a session from before targets were recorded). */
  targets?: Record<string, { target: number; tolerance: number }> | null;
  /** Measured dimensions of session i (undefined: none). */
  measured?: (i: number) => Record<string, number> | null;
  /** Stored text of session i (null: not consented). */
  text?: (i: number) => string | null;
  /** Settlement time of the first session; each next one a minute later. */
  start?: Date;
  /** Distinguishes the nonces of several seeds of one payer. */
  tag?: string;
}

/**
 * Writes settled sessions directly in SQL, in one statement (thousands at once): a settled
 * authorization and its ledger row each, as the settlement would have written them.
 * @param ds - the test stack's DataSource
 * @param seed - what to write
 */
export async function seedLedgerSessions(ds: DataSource, seed: SeedSessions): Promise<void> {
  const n = seed.scores.length;
  const measured = Array.from({ length: n }, (_, i) => (seed.measured ? JSON.stringify(seed.measured(i)) : null));
  const texts = Array.from({ length: n }, (_, i) => (seed.text ? seed.text(i) : null));
  await ds.query(
    `WITH a AS (
       INSERT INTO payment_authorizations
         (rail, network, asset, payer, nonce, x402_version, resource, product, tier, amount, request_hash, result_id, status,
          payment, transaction, created_at, settled_at)
       SELECT 'exact-evm', 'eip155:8453', '0x0000000000000000000000000000000000000001', $1, 'seed-' || $2 || '-' || g, 2,
              '/api/simulate', 'simulate', 'basic', 50000, repeat('a', 64), gen_random_uuid(), 'settled', '{}'::jsonb,
              '0x' || md5($2 || g::text), $3::timestamptz + g * interval '1 minute', $3::timestamptz + g * interval '1 minute'
         FROM generate_series(0, $4::int - 1) AS g
       RETURNING id, payer, nonce, result_id, created_at, settled_at, transaction
     )
     INSERT INTO ledger_sessions
       (authorization_id, product, tier, profile, score, passed, result_id, network, asset, amount, transaction, payer,
        request_hash, created_at, settled_at, persona_targets, measured_dimensions, training_text)
     SELECT a.id, 'simulate', 'basic', $5, ($6::float8[])[i + 1], ($6::float8[])[i + 1] >= $7, a.result_id, 'eip155:8453',
            '0x0000000000000000000000000000000000000001', 50000, a.transaction, a.payer, repeat('a', 64), a.created_at,
            a.settled_at, $8::jsonb, ($9::jsonb[])[i + 1], ($10::text[])[i + 1]
       FROM (SELECT a.*, split_part(a.nonce, '-', 3)::int AS i FROM a) AS a`,
    [
      seed.payer,
      seed.tag ?? 'x',
      (seed.start ?? new Date('2026-01-01T00:00:00Z')).toISOString(),
      n,
      seed.profile,
      seed.scores,
      seed.passAt ?? 70,
      seed.targets ? JSON.stringify(seed.targets) : null,
      measured,
      texts,
    ],
  );
}

/** One settled ledger row of any product, as its settlement would have written it. */
export interface SeedRow {
  /** The payer as the ledger stores it (lowercase EVM address). */
  payer: string;
  product: string;
  tier?: string | null;
  profile?: string | null;
  score?: number | null;
  passed?: boolean | null;
  /** USDC atomic units. */
  amount: number;
  /** How long ago it settled (a PostgreSQL interval); now by default. */
  ago?: string;
}

/**
 * Writes one settled row of any product (a stress test, a script check, a bundle purchase...) with
 * its settled authorization, on the USDC rail of `eip155:8453`.
 * @param ds - the test stack's DataSource
 * @param row - what to write
 * @returns the row's result id and transaction
 */
export async function seedLedgerRow(ds: DataSource, row: SeedRow): Promise<{ resultId: string; transaction: string }> {
  const [written] = (await ds.query(
    `WITH a AS (
       INSERT INTO payment_authorizations
         (rail, network, asset, payer, nonce, x402_version, resource, product, tier, amount, request_hash, result_id, status,
          payment, transaction, created_at, settled_at)
       VALUES ('exact-evm', 'eip155:8453', '0x0000000000000000000000000000000000000001', $1, 'row-' || gen_random_uuid(), 2,
               '/api/' || $2, $2, $3, $4, repeat('b', 64), gen_random_uuid(), 'settled', '{}'::jsonb,
               '0x' || md5(random()::text) || md5(random()::text), now() - $5::interval, now() - $5::interval)
       RETURNING id, payer, result_id, created_at, settled_at, transaction
     )
     INSERT INTO ledger_sessions
       (authorization_id, product, tier, profile, score, passed, result_id, network, asset, amount, transaction, payer,
        request_hash, created_at, settled_at)
     SELECT a.id, $2, $3, $6, $7, $8, a.result_id, 'eip155:8453', '0x0000000000000000000000000000000000000001', $4,
            a.transaction, a.payer, repeat('b', 64), a.created_at, a.settled_at
       FROM a
     RETURNING result_id::text AS "resultId", transaction`,
    [row.payer, row.product, row.tier ?? null, row.amount, row.ago ?? '0 seconds', row.profile ?? null, row.score ?? null, row.passed ?? null],
  )) as Array<{ resultId: string; transaction: string }>;
  return written;
}
