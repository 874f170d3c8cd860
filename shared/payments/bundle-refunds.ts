import type { DataSource } from 'typeorm';

/**
 * Gives a redemption's credit back when its session could not be scored. Deleting the reserved
 * row first makes the refund happen once, whoever else was waiting on the same redemption.
 * @param ds - DataSource
 * @param redemptionId - the reserved redemption
 * @returns whether a credit was given back
 */
export async function refundRedemption(ds: DataSource, redemptionId: string): Promise<boolean> {
  return ds.transaction(async (tx) => {
    const deleted = (await tx.query(`DELETE FROM bundle_redemptions WHERE id = $1 AND status = 'reserved' RETURNING bundle_id`, [redemptionId])) as [
      Array<{ bundle_id: string }>,
      number,
    ];
    const row = deleted[0][0];
    if (row) await tx.query(`UPDATE bundles SET credits_remaining = credits_remaining + 1, updated_at = now() WHERE id = $1`, [row.bundle_id]);
    return Boolean(row);
  });
}

/**
 * Gives back the credits of redemptions left reserved longer than any session can take: their web
 * process died between taking the credit and storing the result (no Idempotency-Key retry came to
 * finish them). One statement, so a redemption is refunded once however many sweeps overlap; a
 * session that was merely slow then finds its redemption gone and answers 503 (retry), never a
 * free result.
 * @param ds - DataSource
 * @param olderThanSeconds - how long a redemption may stay reserved
 * @returns how many credits were given back
 */
export async function refundAbandonedRedemptions(ds: DataSource, olderThanSeconds: number): Promise<number> {
  const rows = (await ds.query(
    `WITH gone AS (
       DELETE FROM bundle_redemptions
        WHERE status = 'reserved' AND created_at < now() - make_interval(secs => $1)
        RETURNING bundle_id),
     per_bundle AS (SELECT bundle_id, count(*)::int AS credits FROM gone GROUP BY bundle_id)
     UPDATE bundles b SET credits_remaining = b.credits_remaining + p.credits, updated_at = now()
       FROM per_bundle p WHERE b.id = p.bundle_id
     RETURNING p.credits`,
    [olderThanSeconds],
  )) as [Array<{ credits: number }>, number];
  return rows[0].reduce((sum, r) => sum + r.credits, 0);
}
