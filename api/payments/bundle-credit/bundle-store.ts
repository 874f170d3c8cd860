import type { DataSource, EntityManager } from 'typeorm';
import type { BundlePlan, BundleSource } from '../../../shared/db/entities';
import { hashBundleToken, newBundleToken } from './bundle-token';

type Queryable = Pick<DataSource | EntityManager, 'query'>;

/** A bundle as the API reads it (never its token hash). */
export interface BundleRow {
  id: string;
  /** The owning wallet; null for a card bundle (its token alone spends it). */
  wallet: string | null;
  plan: BundlePlan;
  source: BundleSource;
  creditsTotal: number;
  creditsRemaining: number;
  /** The purchase's authorization; null for a card bundle. */
  authorizationId: string | null;
  createdAt: Date;
}

interface RawBundle {
  id: string;
  wallet: string | null;
  plan: BundlePlan;
  source: BundleSource;
  credits_total: number;
  credits_remaining: number;
  authorization_id: string | null;
  created_at: Date;
}

const COLUMNS = 'id, wallet, plan, source, credits_total, credits_remaining, authorization_id, created_at';

function toBundle(r: RawBundle): BundleRow {
  return {
    id: r.id,
    wallet: r.wallet,
    plan: r.plan,
    source: r.source,
    creditsTotal: r.credits_total,
    creditsRemaining: r.credits_remaining,
    authorizationId: r.authorization_id,
    createdAt: r.created_at,
  };
}

/**
 * Creates the bundle a purchase pays for, with no token yet (it is minted after settlement). Runs
 * inside the paid work, so a resumed reservation finds the same bundle instead of a second one.
 * @param db - DataSource
 * @param input - owning wallet (the payer), plan, credits, the purchase's authorization
 * @returns the bundle
 */
export async function createPurchaseBundle(
  db: Queryable,
  input: { wallet: string; plan: 'bundle' | 'fleet'; credits: number; authorizationId: string },
): Promise<BundleRow> {
  const rows = (await db.query(
    `WITH ins AS (
       INSERT INTO bundles (wallet, plan, source, credits_total, credits_remaining, authorization_id)
       VALUES ($1, $2, 'purchase', $3, $3, $4)
       ON CONFLICT ON CONSTRAINT uq_bundles_authorization_source DO NOTHING
       RETURNING ${COLUMNS})
     SELECT ${COLUMNS} FROM ins
     UNION ALL SELECT ${COLUMNS} FROM bundles WHERE authorization_id = $4 AND source = 'purchase'
     LIMIT 1`,
    [input.wallet, input.plan, input.credits, input.authorizationId],
  )) as RawBundle[];
  if (!rows[0]) throw new Error('purchase bundle vanished after insert');
  return toBundle(rows[0]);
}

/**
 * Mints the token of a purchase's bundle, once: only while the bundle has none (a recovery that
 * came first wins). Call it only from the first delivery after settlement.
 * @param db - DataSource
 * @param authorizationId - the purchase's authorization
 * @returns the bundle id and its token, or undefined when a token exists already
 */
export async function mintPurchaseToken(db: Queryable, authorizationId: string): Promise<{ bundleId: string; token: string } | undefined> {
  const token = newBundleToken();
  const updated = (await db.query(
    `UPDATE bundles SET token_hash = $2, token_issued_at = now(), updated_at = now()
      WHERE authorization_id = $1 AND source = 'purchase' AND token_hash IS NULL
      RETURNING id`,
    [authorizationId, hashBundleToken(token)],
  )) as [Array<{ id: string }>, number];
  const row = updated[0][0];
  return row ? { bundleId: row.id, token } : undefined;
}

/**
 * Looks a bundle up by the hash of its token.
 * @param db - DataSource
 * @param tokenHash - from `hashBundleToken`
 * @returns the bundle, or undefined
 */
export async function findBundleByTokenHash(db: Queryable, tokenHash: string): Promise<BundleRow | undefined> {
  const rows = (await db.query(`SELECT ${COLUMNS} FROM bundles WHERE token_hash = $1`, [tokenHash])) as RawBundle[];
  return rows[0] ? toBundle(rows[0]) : undefined;
}

/**
 * Loads a bundle by id, with the status of the authorization that paid for or delivered it.
 * @param db - DataSource
 * @param id - bundle id
 * @returns the bundle and whether its authorization settled, or undefined
 */
export async function getBundle(db: Queryable, id: string): Promise<(BundleRow & { settled: boolean }) | undefined> {
  const rows = (await db.query(
    `SELECT b.id, b.wallet, b.plan, b.source, b.credits_total, b.credits_remaining, b.authorization_id, b.created_at,
            a.status = 'settled' AS settled
       FROM bundles b JOIN payment_authorizations a ON a.id = b.authorization_id
      WHERE b.id = $1`,
    [id],
  )) as Array<RawBundle & { settled: boolean }>;
  return rows[0] ? { ...toBundle(rows[0]), settled: rows[0].settled } : undefined;
}

/**
 * Replaces a bundle's token (recovery): the old token stops working at once. A signed recovery is
 * used once: its timestamp must be later than the last recovery's.
 * @param db - DataSource
 * @param id - bundle id
 * @param signedAt - the recovery message's timestamp, Unix seconds
 * @returns the new token and the bundle, or undefined when a recovery signed at or after `signedAt` happened already
 */
export async function replaceBundleToken(db: Queryable, id: string, signedAt: number): Promise<{ token: string; bundle: BundleRow } | undefined> {
  const token = newBundleToken();
  const updated = (await db.query(
    `UPDATE bundles
        SET token_hash = $2, token_issued_at = now(), last_recovery_signed_at = to_timestamp($3), updated_at = now()
      WHERE id = $1 AND (last_recovery_signed_at IS NULL OR last_recovery_signed_at < to_timestamp($3))
      RETURNING ${COLUMNS}`,
    [id, hashBundleToken(token), signedAt],
  )) as [RawBundle[], number];
  const row = updated[0][0];
  return row ? { token, bundle: toBundle(row) } : undefined;
}
