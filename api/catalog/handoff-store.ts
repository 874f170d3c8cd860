import type { DataSource } from 'typeorm';
import { ATTRIBUTION_WINDOW_DAYS } from './catalog-match.schema';

/** A recorded handoff: a completed selection, with nothing about who made it. */
export interface Handoff {
  handoff_id: string;
  job_slug: string;
  offering_id: string;
  created_at: string;
  attribution_expires_at: string;
}

interface Row {
  id: string;
  job_slug: string;
  offering_id: string;
  created_at: Date;
  attribution_expires_at: Date;
}

/**
 * Records a completed selection. The row holds the job, the offering and the partner it belongs to
 * (if any) and its attribution window; no caller address, identity or query text.
 * @param ds - DataSource
 * @param selection - the job, the offering and its partner (undefined for this service's own)
 * @returns the handoff
 */
export async function recordHandoff(ds: DataSource, selection: { jobSlug: string; offeringId: string; partnerId?: string }): Promise<Handoff> {
  const rows = (await ds.query(
    `INSERT INTO catalog_handoffs (job_slug, offering_id, partner_id, attribution_expires_at)
     VALUES ($1, $2, $3, now() + make_interval(days => $4))
     RETURNING id, job_slug, offering_id, created_at, attribution_expires_at`,
    [selection.jobSlug, selection.offeringId, selection.partnerId ?? null, ATTRIBUTION_WINDOW_DAYS],
  )) as Row[];
  const r = rows[0];
  return { handoff_id: r.id, job_slug: r.job_slug, offering_id: r.offering_id, created_at: r.created_at.toISOString(), attribution_expires_at: r.attribution_expires_at.toISOString() };
}
