import type { DataSource } from 'typeorm';
import { EQ_SESSION_SQL } from '../../shared/eq-sessions';
import { PUBLIC_COLUMNS, toPublicSession, type PublicSession, type PublicSessionRow } from './public-row';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EVM_TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const SOL_SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/;

/**
 * The public result of a settled session, passed or not. An id that is no UUID is simply not
 * found (it is never sent to PostgreSQL, whose uuid cast would fail).
 * @param ds - DataSource
 * @param resultId - the public result id
 * @returns the session, or undefined
 */
export async function findPublicResult(ds: DataSource, resultId: string): Promise<PublicSession | undefined> {
  if (!UUID.test(resultId)) return undefined;
  const rows = (await ds.query(`SELECT ${PUBLIC_COLUMNS} FROM ledger_sessions WHERE result_id = $1`, [resultId.toLowerCase()])) as PublicSessionRow[];
  return rows[0] ? toPublicSession(rows[0]) : undefined;
}

/**
 * A transaction hash as the ledger stores it: an EVM hash lowercase, a Solana signature as is.
 * @param txHash - the hash as given
 * @returns the stored form, or undefined for anything that is no transaction hash
 */
export function normalizeTxHash(txHash: string): string | undefined {
  if (EVM_TX_HASH.test(txHash)) return txHash.toLowerCase();
  if (SOL_SIGNATURE.test(txHash)) return txHash;
  return undefined;
}

/**
 * The passed, settled, scored session a certificate's transaction paid for. EVM hashes are stored
 * lowercase, so one typed in another case is found too (see {@link normalizeTxHash}); anything that
 * is no transaction hash is not found.
 * @param ds - DataSource
 * @param txHash - the settlement transaction
 * @returns the session, or undefined (unknown, failed, or no scored reply: only simulate sessions and duel legs are certified)
 */
export async function findCertifiedSession(ds: DataSource, txHash: string): Promise<PublicSession | undefined> {
  const key = normalizeTxHash(txHash);
  if (key === undefined) return undefined;
  const rows = (await ds.query(
    `SELECT ${PUBLIC_COLUMNS} FROM ledger_sessions
      WHERE transaction = $1 AND passed IS TRUE AND ${EQ_SESSION_SQL}
      ORDER BY score DESC LIMIT 1`,
    [key],
  )) as PublicSessionRow[];
  return rows[0] ? toPublicSession(rows[0]) : undefined;
}
