import { CATALOG_JOBS, type CatalogJob } from './jobs';

/** The matcher's version: part of every answer, changed whenever a rule or a job's keywords change. */
export const MATCHER_VERSION = 'catalog-keywords-1';

/** At most this many jobs are recommended for one query. */
export const MAX_RECOMMENDATIONS = 3;

/** One recommended job. */
export interface JobMatch {
  readonly job: CatalogJob;
  /** The sum of the weights of the job's keywords the query holds (each counted once). */
  readonly score: number;
  /** Those keywords as the job writes them, in the job's own order. */
  readonly matched_keywords: readonly string[];
}

// Plural, -ing and final-e forms fold onto one stem, so "replies"/"reply", "sending"/"send" and
// "tuning"/"tune" meet. Both the query and the keywords go through it, so the rule only has to be
// consistent, not linguistically right ("tune" and "tuning" both become "tun").
function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith('e') && !w.endsWith('ee')) w = w.slice(0, -1);
  return w;
}

/**
 * Splits text into the matcher's terms: Unicode-normalized (NFKC), lowercase, cut at every
 * character that is not a letter or digit, and stemmed ("Role-play", "role play" and "roleplays"
 * give "role play", "role play" and "roleplay").
 * @param text - a query or a keyword
 * @returns the terms, in order
 */
export function normalizeTerms(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .map(stem);
}

// Each job's keywords as term sequences, normalized once.
const PREPARED = CATALOG_JOBS.map((job, order) => ({
  job,
  order,
  keywords: Object.entries(job.keywords).map(([keyword, weight]) => ({ keyword, terms: normalizeTerms(keyword), weight })),
}));

const holds = (terms: readonly string[], phrase: readonly string[]): boolean => {
  outer: for (let i = 0; i + phrase.length <= terms.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (terms[i + j] !== phrase[j]) continue outer;
    return true;
  }
  return false;
};

/**
 * Ranks the curated jobs for a short keyword query. Deterministic and local: no model, no network,
 * no state, so the same query always gives the same answer. A job scores the sum of the weights of
 * its keywords (single words or phrases) found among the query's terms, each keyword once; jobs
 * scoring 0 are left out. Order: higher score first; on a tie, the job listed earlier in
 * `CATALOG_JOBS` first. At most {@link MAX_RECOMMENDATIONS} jobs.
 * @param query - the query text (never stored or logged by callers of this function)
 * @returns the matches, best first (empty when no keyword matched)
 */
export function recommendJobs(query: string): JobMatch[] {
  const terms = normalizeTerms(query);
  const scored = PREPARED.map(({ job, order, keywords }) => {
    const matched = keywords.filter((k) => k.terms.length > 0 && holds(terms, k.terms));
    // Two keywords can normalize to the same terms ("coach", "coaching"): the heavier one counts.
    const unique = new Map<string, { keyword: string; weight: number }>();
    for (const k of matched) {
      const key = k.terms.join(' ');
      const seen = unique.get(key);
      if (!seen || k.weight > seen.weight) unique.set(key, { keyword: k.keyword, weight: k.weight });
    }
    const score = [...unique.values()].reduce((sum, k) => sum + k.weight, 0);
    return { job, order, score, matched_keywords: [...unique.values()].map((k) => k.keyword) };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, MAX_RECOMMENDATIONS)
    .map(({ job, score, matched_keywords }) => ({ job, score, matched_keywords }));
}
