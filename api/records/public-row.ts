import { isEqSession, ledgerKindOf } from '../../shared/eq-sessions';
import type { LedgerKind } from '../../shared/products';
import { findProfile } from '../../shared/profiles';
import { maskWallet } from '../../shared/payments/mask';

/** A ledger row as the public records read it: never the full payer, the hash or the request. */
export interface PublicSessionRow {
  result_id: string;
  product: string;
  tier: string | null;
  profile: string | null;
  score: number | null;
  passed: boolean | null;
  network: string;
  settled_at: Date;
  /** The payer, read only to be masked by {@link toPublicSession}. */
  payer: string;
}

/** One settled session as every public record shows it. */
export interface PublicSession {
  result_id: string;
  product: string;
  /** What the row is: only a `scored_session` (simulate, duel leg) carries an EQ score and a verdict. */
  kind: LedgerKind;
  /** The product as people read it ("Scored session", "Stress test", "Bundle purchase"...). */
  label: string;
  tier: string | null;
  profile: { id: string; name: string } | null;
  /** The EQ score of a scored session; null for every other product (a stress test's mean or a script check's adherence is no EQ score). */
  eq_score: number | null;
  /** The verdict of a scored session; null for every other product. */
  passed: boolean | null;
  network: string;
  /** The payer's first 6 and last 4 characters (an EVM address checksummed). */
  wallet: string;
  settled_at: string;
}

/**
 * The public form of a ledger row: the wallet masked to its first 6 and last 4 characters, the
 * profile with its display name, and the score and verdict only where they are an EQ score's.
 * @param row - the row, read with the columns of {@link PUBLIC_COLUMNS}
 * @returns the public session
 */
export function toPublicSession(row: PublicSessionRow): PublicSession {
  const eq = isEqSession(row.product);
  return {
    result_id: row.result_id,
    product: row.product,
    ...ledgerKindOf(row.product),
    tier: row.tier,
    profile: profileOf(row.profile),
    eq_score: eq ? row.score : null,
    passed: eq ? row.passed : null,
    network: row.network,
    wallet: maskWallet(row.payer),
    settled_at: new Date(row.settled_at).toISOString(),
  };
}

/**
 * A profile id with its display name (an id the catalog no longer knows keeps its id as name).
 * @param id - profile id, or null
 * @returns the pair, or null
 */
export function profileOf(id: string | null): { id: string; name: string } | null {
  if (id === null) return null;
  return { id, name: findProfile(id)?.name ?? id };
}

/** The ledger columns a {@link PublicSessionRow} is read with (no transaction, no request hash). */
export const PUBLIC_COLUMNS = 'result_id::text AS result_id, product, tier, profile, score, passed, network, settled_at, payer';
