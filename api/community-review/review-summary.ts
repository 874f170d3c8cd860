import type { DataSource } from 'typeorm';
import { RATING_MAX, RATING_MIN, REVIEW_DIMENSIONS, type ReviewDimension } from './review-samples';

/** Below this many ratings of a dimension, its agreement figures are null: too few to mean anything. */
export const MIN_RATINGS_FOR_AGREEMENT = 5;

/** Agreement of people's ratings with the engine on one dimension. */
export interface DimensionAgreement {
  dimension: ReviewDimension;
  engine_field: string;
  ratings: number;
  samples: number;
  spearman: number | null;
  mean_absolute_difference: number | null;
  mean_rating: number | null;
  mean_engine: number | null;
}

/** GET /api/community-review/summary. */
export interface ReviewSummary {
  generated_at: string;
  sessions: number;
  reviewed_sessions: number;
  rated_samples: number;
  min_ratings: number;
  scale: { min: number; max: number };
  method: string;
  dimensions: DimensionAgreement[];
}

const ENGINE_FIELDS: Record<ReviewDimension, string> = {
  human_likeness: 'human_likeness / 100',
  empathy: 'measures.empathy',
  formality: 'measures.formality',
  directness: 'measures.directness',
  hesitation: 'measures.hesitation',
};

const METHOD =
  `Each rating (${RATING_MIN} to ${RATING_MAX}) is mapped to 0..1 ((rating - ${RATING_MIN}) / ${RATING_MAX - RATING_MIN}) and paired with the engine's ` +
  "value of the same sample on 0..1 at the time of rating. spearman is Pearson's correlation of the average ranks of both sides " +
  '(Spearman with tie correction); mean_absolute_difference is the mean distance of the pairs. A sample rated again in the same ' +
  'session counts once (its latest rating).';

const round4 = (x: number | null) => (x === null ? null : Math.round(x * 10_000) / 10_000);

/**
 * Aggregates every rating against the engine, per dimension, in PostgreSQL: average ranks from
 * window functions, then corr() over them, so the summary never loads the ratings.
 * @param ds - DataSource
 * @returns the summary
 */
export async function loadReviewSummary(ds: DataSource): Promise<ReviewSummary> {
  const [totals] = (await ds.query(
    `SELECT (SELECT count(*)::int FROM community_review_sessions) AS sessions,
            (SELECT count(DISTINCT session_id)::int FROM community_review_responses) AS reviewed,
            (SELECT count(*)::int FROM community_review_responses) AS responses`,
  )) as Array<{ sessions: number; reviewed: number; responses: number }>;
  const rows = (await ds.query(
    `WITH pairs AS (
       SELECT dimension, sample_id, (rating - $1)::double precision / $2 AS rv, engine_value AS ev FROM community_review_ratings
     ), ranked AS (
       SELECT dimension, sample_id, rv, ev,
              rank() OVER (PARTITION BY dimension ORDER BY rv) + (count(*) OVER (PARTITION BY dimension, rv) - 1) / 2.0 AS rr,
              rank() OVER (PARTITION BY dimension ORDER BY ev) + (count(*) OVER (PARTITION BY dimension, ev) - 1) / 2.0 AS re
         FROM pairs
     )
     SELECT dimension, count(*)::int AS ratings, count(DISTINCT sample_id)::int AS samples,
            corr(rr, re) AS spearman, avg(abs(rv - ev)) AS mad, avg(rv) AS mean_rating, avg(ev) AS mean_engine
       FROM ranked GROUP BY dimension`,
    [RATING_MIN, RATING_MAX - RATING_MIN],
  )) as Array<{ dimension: ReviewDimension; ratings: number; samples: number; spearman: number | null; mad: number | null; mean_rating: number | null; mean_engine: number | null }>;
  const byDimension = new Map(rows.map((r) => [r.dimension, r]));
  return {
    generated_at: new Date().toISOString(),
    sessions: totals.sessions,
    reviewed_sessions: totals.reviewed,
    rated_samples: totals.responses,
    min_ratings: MIN_RATINGS_FOR_AGREEMENT,
    scale: { min: RATING_MIN, max: RATING_MAX },
    method: METHOD,
    dimensions: REVIEW_DIMENSIONS.map((dimension) => {
      const r = byDimension.get(dimension);
      const enough = (r?.ratings ?? 0) >= MIN_RATINGS_FOR_AGREEMENT;
      // corr() is NULL when a side does not vary; a NaN never reaches JSON.
      const spearman = enough && r?.spearman !== null && Number.isFinite(Number(r?.spearman)) ? Number(r?.spearman) : null;
      return {
        dimension,
        engine_field: ENGINE_FIELDS[dimension],
        ratings: r?.ratings ?? 0,
        samples: r?.samples ?? 0,
        spearman: round4(spearman),
        mean_absolute_difference: round4(enough && r?.mad != null ? Number(r.mad) : null),
        mean_rating: round4(r?.mean_rating != null ? Number(r.mean_rating) : null),
        mean_engine: round4(r?.mean_engine != null ? Number(r.mean_engine) : null),
      };
    }),
  };
}
