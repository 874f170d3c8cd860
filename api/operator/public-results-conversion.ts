import type { DataSource } from 'typeorm';

/** One UTC day of the funnel. */
export interface ConversionDay {
  date: string;
  result_views: number;
  certificate_views: number;
  paid_calls: number;
  /** Paid calls that were their wallet's first ever (new paying wallets that day). */
  first_paid_calls: number;
}

/** The body of `GET /api/operator/public-results/conversion`. */
export interface Conversion {
  generated_at: string;
  window: { from: string; to: string; days: number };
  attribution: string;
  totals: Omit<ConversionDay, 'date'> & { public_views: number; paid_calls_per_100_views: number | null; first_paid_calls_per_100_views: number | null };
  days: ConversionDay[];
}

/** How views and paid calls are related, without any identity. */
export const CONVERSION_ATTRIBUTION =
  'Same-day aggregate attribution: public result and certificate page views are counted per UTC day (no viewer ' +
  'address, caller hash or result id is kept), and paid calls are counted on the UTC day they settled. A paid call ' +
  'is a first paid call when its wallet had never paid before. The ratios divide daily totals over the window; they ' +
  'measure how paying follows public exposure, not that a given viewer paid.';

const per100 = (n: number, views: number) => (views > 0 ? Math.round((n / views) * 10_000) / 100 : null);

/**
 * The identity-free funnel from public result views to paid calls, one row per UTC day of the
 * window (days without activity included), ending today.
 * @param ds - DataSource
 * @param days - window length in days (today included)
 * @returns the funnel
 */
export async function loadConversion(ds: DataSource, days: number): Promise<Conversion> {
  const rows = (await ds.query(
    `WITH window_days AS (
       SELECT d::date AS day
         FROM generate_series((now() AT TIME ZONE 'UTC')::date - ($1::int - 1), (now() AT TIME ZONE 'UTC')::date, interval '1 day') AS d
     ),
     views AS (
       SELECT day,
              sum(views) FILTER (WHERE page = 'result') AS result_views,
              sum(views) FILTER (WHERE page = 'certificate') AS certificate_views
         FROM public_result_views
        WHERE day >= (now() AT TIME ZONE 'UTC')::date - ($1::int - 1)
        GROUP BY day
     ),
     firsts AS (
       SELECT DISTINCT ON (payer) id FROM ledger_sessions ORDER BY payer, settled_at, id
     ),
     paid AS (
       SELECT (l.settled_at AT TIME ZONE 'UTC')::date AS day,
              count(*) AS paid_calls,
              count(f.id) AS first_paid_calls
         FROM ledger_sessions l LEFT JOIN firsts f ON f.id = l.id
        WHERE l.settled_at >= ((now() AT TIME ZONE 'UTC')::date - ($1::int - 1)) AT TIME ZONE 'UTC'
        GROUP BY 1
     )
     SELECT to_char(w.day, 'YYYY-MM-DD') AS date,
            coalesce(v.result_views, 0)::int AS result_views,
            coalesce(v.certificate_views, 0)::int AS certificate_views,
            coalesce(p.paid_calls, 0)::int AS paid_calls,
            coalesce(p.first_paid_calls, 0)::int AS first_paid_calls
       FROM window_days w
       LEFT JOIN views v ON v.day = w.day
       LEFT JOIN paid p ON p.day = w.day
      ORDER BY w.day`,
    [days],
  )) as ConversionDay[];
  const sum = (k: keyof Omit<ConversionDay, 'date'>) => rows.reduce((s, r) => s + r[k], 0);
  const resultViews = sum('result_views');
  const certificateViews = sum('certificate_views');
  const paidCalls = sum('paid_calls');
  const firstPaidCalls = sum('first_paid_calls');
  const views = resultViews + certificateViews;
  return {
    generated_at: new Date().toISOString(),
    window: { from: rows[0].date, to: rows[rows.length - 1].date, days },
    attribution: CONVERSION_ATTRIBUTION,
    totals: {
      result_views: resultViews,
      certificate_views: certificateViews,
      public_views: views,
      paid_calls: paidCalls,
      first_paid_calls: firstPaidCalls,
      paid_calls_per_100_views: per100(paidCalls, views),
      first_paid_calls_per_100_views: per100(firstPaidCalls, views),
    },
    days: rows,
  };
}
