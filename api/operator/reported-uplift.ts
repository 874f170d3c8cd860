import type { DataSource } from 'typeorm';
import { MIN_PEOPLE } from '../../shared/agreement/suppression';
import { PROFILES } from '../../shared/profiles';

const Z95 = 1.959964;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** What the reported uplift means; published with it. */
export const REPORTED_UPLIFT_DEFINITION =
  'From bundle holders\' outcome reports (POST /api/aei/outcome): per profile, the mean of eq_score_after - eq_score_before over ' +
  'conversations where the advice was applied, with a 95% normal interval, beside the same mean where it was not applied (the ' +
  `comparison). A figure resting on fewer than ${MIN_PEOPLE} distinct bundles is null and marked suppressed.`;

/** One line of the reported uplift. */
export interface ReportedUplift {
  reports: number;
  /** Distinct reporting bundles; null below the minimum (a count of one or two holders singles them out). */
  bundles: number | null;
  applied: { reports: number; mean_eq_change: number | null; interval95: [number, number] | null };
  not_applied: { reports: number; mean_eq_change: number | null };
  suppressed: boolean;
}

interface Row {
  profile: string | null;
  reports: number;
  bundles: number;
  applied: number;
  mean_applied: number | null;
  sd_applied: number | null;
  not_applied: number;
  mean_not_applied: number | null;
}

function line(r: Row | undefined): ReportedUplift {
  if (!r) return { reports: 0, bundles: 0, applied: { reports: 0, mean_eq_change: null, interval95: null }, not_applied: { reports: 0, mean_eq_change: null }, suppressed: false };
  const shown = r.bundles >= MIN_PEOPLE;
  const half = r.sd_applied !== null && r.applied > 1 ? (Z95 * r.sd_applied) / Math.sqrt(r.applied) : null;
  return {
    reports: r.reports,
    bundles: shown ? r.bundles : null,
    applied: {
      reports: r.applied,
      mean_eq_change: shown && r.mean_applied !== null ? round2(r.mean_applied) : null,
      interval95: shown && r.mean_applied !== null && half !== null ? [round2(r.mean_applied - half), round2(r.mean_applied + half)] : null,
    },
    not_applied: { reports: r.not_applied, mean_eq_change: shown && r.mean_not_applied !== null ? round2(r.mean_not_applied) : null },
    suppressed: !shown,
  };
}

/**
 * The measured uplift that bundle holders reported, per profile in catalog order and in total.
 * @param ds - DataSource
 * @returns the definition, the totals and one line per profile
 */
export async function loadReportedUplift(ds: Pick<DataSource, 'query'>) {
  const rows = (await ds.query(
    `SELECT profile, count(*)::int AS reports, count(DISTINCT bundle_id)::int AS bundles,
            count(*) FILTER (WHERE advice_applied)::int AS applied,
            (avg(eq_score_after - eq_score_before) FILTER (WHERE advice_applied))::float8 AS mean_applied,
            (stddev_samp(eq_score_after - eq_score_before) FILTER (WHERE advice_applied))::float8 AS sd_applied,
            count(*) FILTER (WHERE NOT advice_applied)::int AS not_applied,
            (avg(eq_score_after - eq_score_before) FILTER (WHERE NOT advice_applied))::float8 AS mean_not_applied
       FROM aei_bundle_outcomes
      GROUP BY GROUPING SETS ((profile), ())`,
  )) as Row[];
  const total = rows.find((r) => r.profile === null);
  const byProfile = new Map(rows.filter((r) => r.profile !== null).map((r) => [r.profile, r]));
  return {
    definition: REPORTED_UPLIFT_DEFINITION,
    min_bundles: MIN_PEOPLE,
    totals: line(total && total.reports > 0 ? total : undefined),
    profiles: PROFILES.map((p) => ({ profile: p.id, ...line(byProfile.get(p.id)) })),
  };
}
