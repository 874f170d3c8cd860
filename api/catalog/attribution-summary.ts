import type { DataSource } from 'typeorm';
import { JOB_SLUGS } from '../../shared/catalog/jobs';
import { ATTRIBUTION_WINDOW_DAYS } from './catalog-match.schema';
import { countVerifiedInstalls } from '../../shared/catalog/install-store';

/** One vendor's totals (operators only). */
export interface VendorTotals {
  partner_id: string;
  name: string;
  handoffs: number;
  conversions: number;
}

/**
 * The public totals: verified installs and handoffs per job (every job listed, zero included).
 * Nothing in it names a caller, a site or a vendor.
 * @param ds - DataSource
 * @returns the totals
 */
export async function loadPublicSummary(ds: DataSource) {
  const rows = (await ds.query(`SELECT job_slug, count(*)::int AS n FROM catalog_handoffs GROUP BY job_slug`)) as Array<{ job_slug: string; n: number }>;
  const byJob: Record<string, number> = Object.fromEntries(JOB_SLUGS.map((slug) => [slug, 0]));
  for (const r of rows) if (r.job_slug in byJob) byJob[r.job_slug] = r.n;
  return {
    // Installs proven live by the free install workflow; no origin or identity leaves the count.
    installers: { verified_installs: await countVerifiedInstalls(ds) },
    handoffs: { total: Object.values(byJob).reduce((a, b) => a + b, 0), by_job: byJob },
    attribution_window_days: ATTRIBUTION_WINDOW_DAYS,
  };
}

/**
 * Per-vendor handoffs and counted conversions, every listed partner included (for operators).
 * @param ds - DataSource
 * @returns the totals, by partner id
 */
export async function loadVendorTotals(ds: DataSource): Promise<VendorTotals[]> {
  return (await ds.query(
    `SELECT p.id AS partner_id, p.name,
            (SELECT count(*)::int FROM catalog_handoffs h WHERE h.partner_id = p.id) AS handoffs,
            (SELECT count(*)::int FROM catalog_conversions c WHERE c.partner_id = p.id) AS conversions
       FROM catalog_partners p ORDER BY p.id`,
  )) as VendorTotals[];
}
