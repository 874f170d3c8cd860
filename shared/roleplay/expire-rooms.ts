import type { DataSource } from 'typeorm';

/**
 * Expires every open room whose unmatched deadline has passed: one conditional UPDATE (only rooms
 * still `open`), so a join racing it, or the same job on another worker, is decided by the
 * database and no room is both joined and expired. Expired rooms leave the open list and cannot be
 * joined; the opener's payment stays on the ledger.
 * @param db - DataSource
 * @returns how many rooms expired
 */
export async function expireUnmatchedRooms(db: Pick<DataSource, 'query'>): Promise<number> {
  const updated = (await db.query(
    `UPDATE roleplay_rooms SET state = 'expired', expired_at = now()
      WHERE state = 'open' AND expires_at <= now()
      RETURNING id`,
  )) as [unknown[], number];
  return updated[0].length;
}
