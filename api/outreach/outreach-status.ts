import type { DataSource } from 'typeorm';

/** The outreach status: lead id to done. */
export type OutreachStatus = Record<string, boolean>;

/**
 * Every lead's status, ordered by lead id.
 * @param ds - DataSource
 * @returns the map of lead_id to done
 */
export async function readOutreachStatus(ds: DataSource): Promise<OutreachStatus> {
  const rows = (await ds.query(`SELECT lead_id, done FROM outreach_status ORDER BY lead_id`)) as Array<{ lead_id: string; done: boolean }>;
  return Object.fromEntries(rows.map((r) => [r.lead_id, r.done]));
}

/**
 * Sets the status of the given leads (others are left as they are), in one statement, noting
 * which operator credential set each and when.
 * @param ds - DataSource
 * @param update - lead id to done (validated ids)
 * @param credentialId - the operator credential making the change
 */
export async function updateOutreachStatus(ds: DataSource, update: OutreachStatus, credentialId: string): Promise<void> {
  const entries = Object.entries(update);
  await ds.query(
    `INSERT INTO outreach_status (lead_id, done, updated_by)
     SELECT lead_id, done, $3 FROM unnest($1::text[], $2::boolean[]) AS u(lead_id, done)
     ON CONFLICT (lead_id) DO UPDATE SET done = excluded.done, updated_at = now(), updated_by = excluded.updated_by`,
    [entries.map(([id]) => id), entries.map(([, done]) => done), credentialId],
  );
}
