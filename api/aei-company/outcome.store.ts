import type { DataSource } from 'typeorm';
import { MIN_PEOPLE, suppressBelowMin } from '../../shared/agreement/suppression';
import { AppError } from '../../shared/errors';
import { OUTCOME_METRICS, type BundleOutcomeRequest, type CompanyOutcomeRequest } from './outcome.schema';

/**
 * Stores a company's outcome report, once per metric and period.
 * @param db - DataSource
 * @param companyId - the reporting company
 * @param report - the validated report
 * @returns the report's id
 * @throws AppError 409 outcome_already_reported
 */
export async function recordCompanyOutcome(db: DataSource, companyId: string, report: CompanyOutcomeRequest): Promise<string> {
  const rows = (await db.query(
    `INSERT INTO aei_company_outcomes (company_id, metric, period_start, period_end, before_rate, before_conversations, after_rate, after_conversations)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT ON CONSTRAINT uq_aei_company_outcomes_period DO NOTHING RETURNING id`,
    [companyId, report.metric, report.period.start, report.period.end, report.before.rate, report.before.conversations, report.after.rate, report.after.conversations],
  )) as Array<{ id: string }>;
  if (!rows[0]) throw new AppError(409, 'outcome_already_reported', 'This company already reported this metric for this period; the first report stands.');
  return rows[0].id;
}

/**
 * Stores a bundle holder's report of one conversation.
 * @param db - DataSource
 * @param bundleId - the reporting bundle
 * @param report - the validated report
 * @returns the report's id
 */
export async function recordBundleOutcome(db: DataSource, bundleId: string, report: BundleOutcomeRequest): Promise<string> {
  const rows = (await db.query(
    `INSERT INTO aei_bundle_outcomes (bundle_id, profile, advice_applied, eq_score_before, eq_score_after, resolved) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [bundleId, report.profile, report.advice_applied, report.eq_score_before, report.eq_score_after, report.resolved ?? null],
  )) as Array<{ id: string }>;
  return rows[0].id;
}

const round = (x: number, places = 4) => Math.round(x * 10 ** places) / 10 ** places;
const Z95 = 1.959964;

function hide<T>(value: T, people: number): T | null {
  return suppressBelowMin(value, people).value;
}

/**
 * The program's evidence across companies: guide calls, outcome reports pooled per metric with a
 * 95% interval of the uplift, and the bundle holders' reports. A figure resting on fewer than
 * {@link MIN_PEOPLE} companies (or bundles) is null, with `suppressed: true`.
 * @param db - DataSource
 * @returns the evidence body
 */
export async function loadEvidence(db: DataSource) {
  const [companies] = (await db.query(
    `SELECT count(*) FILTER (WHERE activated_at IS NOT NULL)::int AS active,
            count(*) FILTER (WHERE guide_calls_used > 0)::int AS guiding,
            COALESCE(sum(guide_calls_used), 0)::int AS calls,
            (SELECT count(DISTINCT company_id)::int FROM aei_company_outcomes) AS reporting
       FROM aei_companies`,
  )) as Array<{ active: number; guiding: number; calls: number; reporting: number }>;
  const metrics = (await db.query(
    `SELECT metric, count(DISTINCT company_id)::int AS companies, count(*)::int AS reports,
            sum(before_conversations)::bigint AS n1, sum(after_conversations)::bigint AS n2,
            sum(before_rate * before_conversations) AS x1, sum(after_rate * after_conversations) AS x2
       FROM aei_company_outcomes GROUP BY metric`,
  )) as Array<{ metric: string; companies: number; reports: number; n1: string; n2: string; x1: number; x2: number }>;
  const outcomes = OUTCOME_METRICS.map((metric) => {
    const m = metrics.find((r) => r.metric === metric);
    const people = m?.companies ?? 0;
    if (!m) return { metric, companies: 0, reports: 0, conversations_before: 0, conversations_after: 0, rate_before: null, rate_after: null, uplift: null, interval95: null, suppressed: false };
    const n1 = Number(m.n1);
    const n2 = Number(m.n2);
    const p1 = m.x1 / n1;
    const p2 = m.x2 / n2;
    // Pooled over conversations; Wald interval of the difference of two proportions.
    const half = Z95 * Math.sqrt((p1 * (1 - p1)) / n1 + (p2 * (1 - p2)) / n2);
    return {
      metric,
      companies: hide(people, people),
      reports: hide(m.reports, people),
      conversations_before: hide(n1, people),
      conversations_after: hide(n2, people),
      rate_before: hide(round(p1), people),
      rate_after: hide(round(p2), people),
      uplift: hide(round(p2 - p1), people),
      interval95: hide([round(p2 - p1 - half), round(p2 - p1 + half)], people),
      suppressed: people < MIN_PEOPLE,
    };
  });
  const [b] = (await db.query(
    `SELECT count(DISTINCT bundle_id)::int AS bundles, count(*)::int AS reports,
            count(*) FILTER (WHERE advice_applied)::int AS applied,
            avg(eq_score_after - eq_score_before) FILTER (WHERE advice_applied) AS mean,
            stddev_samp(eq_score_after - eq_score_before) FILTER (WHERE advice_applied) AS sd
       FROM aei_bundle_outcomes`,
  )) as Array<{ bundles: number; reports: number; applied: number; mean: number | null; sd: number | null }>;
  const bHalf = b.sd !== null && b.applied > 1 ? (Z95 * b.sd) / Math.sqrt(b.applied) : null;
  return {
    min_companies: MIN_PEOPLE,
    companies: { active: companies.active, reporting: companies.reporting },
    guide_calls: {
      companies: hide(companies.guiding, companies.guiding),
      total: hide(companies.calls, companies.guiding),
      suppressed: companies.guiding < MIN_PEOPLE,
    },
    outcomes,
    bundle_outcomes: {
      bundles: hide(b.bundles, b.bundles),
      reports: hide(b.reports, b.bundles),
      advice_applied: hide(b.applied, b.bundles),
      mean_uplift: b.mean === null ? null : hide(round(b.mean, 2), b.bundles),
      interval95: b.mean === null || bHalf === null ? null : hide([round(b.mean - bHalf, 2), round(b.mean + bHalf, 2)], b.bundles),
      suppressed: b.bundles < MIN_PEOPLE,
    },
    definitions: {
      suppression: `A figure resting on fewer than ${MIN_PEOPLE} companies (bundles, for bundle reports) is null and marked suppressed.`,
      outcomes: 'Per metric, rates pooled over the conversations of every report; uplift = rate_after - rate_before with a 95% Wald interval of the difference of two proportions. For escalation_rate a negative uplift is the improvement.',
      bundle_outcomes: 'Mean of eq_score_after - eq_score_before over reports where the advice was applied, with a 95% normal interval.',
      guide_calls: 'Guide calls counted on company tokens in their current periods; calls without a token or with a bundle token are not counted here.',
    },
  };
}
