import type { DataSource } from 'typeorm';
import { PROFILES } from '../../shared/profiles';

/** Uplift over the callers whose improvement could be measured. */
export interface Uplift {
  /** Mean of (average of a caller's later clean scores minus their first), EQ points; null when nobody was measured. */
  mean_eq_change: number | null;
  /** Callers with at least two clean samples on the profile. */
  callers_measured: number;
}

/** One profile's line of the insights. */
export interface ProfileInsight {
  profile: string;
  clean_samples: number;
  /** Mean EQ score (0..100) of the clean samples; null without any. */
  average_eq_score: number | null;
  uplift: Uplift;
}

/** The body of `GET /api/operator/corpus-insights`. */
export interface CorpusInsights {
  generated_at: string;
  definitions: { clean_sample: string; average_eq_score: string; uplift: string };
  totals: { clean_samples: number; average_eq_score: number | null; uplift: Uplift };
  profiles: ProfileInsight[];
}

/** What each number means; published with the numbers so a reader never has to guess. */
export const CORPUS_INSIGHT_DEFINITIONS = Object.freeze({
  clean_sample:
    'A consented free-tier reply that was scored, names a profile, and is the first occurrence of its text on that profile ' +
    '(texts compared case-insensitively with whitespace collapsed, so resubmissions and copies are counted once).',
  average_eq_score: 'The mean EQ score (0 to 100) of the clean samples.',
  uplift:
    'For each caller with two or more clean samples on a profile: the mean of their later scores minus their first score; ' +
    'the uplift is the mean of that change over those callers (EQ points; positive means callers improved after feedback). ' +
    'Callers are grouped by their keyed hash inside the database only; no caller identity leaves it.',
});

const round2 = (n: number | null) => (n === null ? null : Math.round(n * 100) / 100);

interface Row {
  profile: string;
  clean_samples: number;
  score_sum: number;
  callers_measured: number;
  change_sum: number | null;
}

/**
 * Per-profile clean-sample counts, average score and measured uplift of the free corpus
 * ({@link CORPUS_INSIGHT_DEFINITIONS}). Every profile is listed, in the catalog's order, zeros
 * included. Aggregates only: no text, caller hash or entry id is returned.
 * @param ds - DataSource
 * @returns the insights
 */
export async function loadCorpusInsights(ds: DataSource): Promise<CorpusInsights> {
  const rows = (await ds.query(`
    WITH clean AS (
      SELECT DISTINCT ON (profile, md5(lower(btrim(regexp_replace(text, '\\s+', ' ', 'g')))))
             profile, caller_hash, eq_score, created_at, id
        FROM free_corpus_entries
       WHERE scored_at IS NOT NULL AND eq_score IS NOT NULL AND profile IS NOT NULL
       ORDER BY profile, md5(lower(btrim(regexp_replace(text, '\\s+', ' ', 'g')))), created_at, id
    ),
    ranked AS (
      SELECT profile, caller_hash, eq_score,
             row_number() OVER (PARTITION BY profile, caller_hash ORDER BY created_at, id) AS n
        FROM clean
    ),
    per_caller AS (
      SELECT profile,
             count(*) AS samples,
             sum(eq_score) AS score_sum,
             avg(eq_score) FILTER (WHERE n > 1) - max(eq_score) FILTER (WHERE n = 1) AS change
        FROM ranked
       GROUP BY profile, caller_hash
    )
    SELECT profile,
           sum(samples)::int AS clean_samples,
           sum(score_sum)::float8 AS score_sum,
           count(change)::int AS callers_measured,
           sum(change)::float8 AS change_sum
      FROM per_caller
     GROUP BY profile`)) as Row[];
  const byProfile = new Map(rows.map((r) => [r.profile, r]));
  const uplift = (measured: number, changeSum: number | null): Uplift => ({
    mean_eq_change: measured > 0 && changeSum !== null ? round2(changeSum / measured) : null,
    callers_measured: measured,
  });
  const profiles = PROFILES.map((p): ProfileInsight => {
    const r = byProfile.get(p.id);
    if (!r) return { profile: p.id, clean_samples: 0, average_eq_score: null, uplift: uplift(0, null) };
    return { profile: p.id, clean_samples: r.clean_samples, average_eq_score: round2(r.score_sum / r.clean_samples), uplift: uplift(r.callers_measured, r.change_sum) };
  });
  // Entries of a profile no longer in the catalog still count in the totals.
  const samples = rows.reduce((s, r) => s + r.clean_samples, 0);
  const scoreSum = rows.reduce((s, r) => s + r.score_sum, 0);
  const measured = rows.reduce((s, r) => s + r.callers_measured, 0);
  const changeSum = rows.reduce((s, r) => s + (r.change_sum ?? 0), 0);
  return {
    generated_at: new Date().toISOString(),
    definitions: { ...CORPUS_INSIGHT_DEFINITIONS },
    totals: { clean_samples: samples, average_eq_score: samples > 0 ? round2(scoreSum / samples) : null, uplift: uplift(measured, changeSum) },
    profiles,
  };
}
