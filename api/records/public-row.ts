import { findProfile } from '../../shared/profiles';
import { maskIdentifier } from '../../shared/payments/mask';

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
  tier: string | null;
  profile: { id: string; name: string } | null;
  eq_score: number | null;
  passed: boolean | null;
  network: string;
  /** The payer's first 6 and last 4 characters. */
  wallet: string;
  settled_at: string;
}

/**
 * The public form of a ledger row: the wallet masked to its first 6 and last 4 characters, the
 * profile with its display name.
 * @param row - the row, read with the columns of {@link PUBLIC_COLUMNS}
 * @returns the public session
 */
export function toPublicSession(row: PublicSessionRow): PublicSession {
  return {
    result_id: row.result_id,
    product: row.product,
    tier: row.tier,
    profile: profileOf(row.profile),
    eq_score: row.score,
    passed: row.passed,
    network: row.network,
    wallet: maskIdentifier(row.payer),
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
