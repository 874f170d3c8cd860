import { randomInt } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { ResponseInput } from './community-review.schema';
import { hashSessionSecret, mintSessionSecret } from './review-secret';
import { engineValue, REVIEW_DIMENSIONS, REVIEW_SCORER_VERSION, reviewSamples, SAMPLE_IDS, type ReviewDimension } from './review-samples';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One sample's ratings in a session. */
export type SampleRatings = Partial<Record<ReviewDimension, number>>;

/** A stored review session with this session's ratings (never the comments). */
export interface StoredReviewSession {
  id: string;
  createdAt: Date;
  sampleIds: string[];
  secretHash: string;
  /** Ratings by sample id, for the samples rated so far. */
  rated: Map<string, SampleRatings>;
}

/**
 * `count` distinct sample ids in random order (Fisher-Yates with a CSPRNG), so ratings spread
 * over the whole set.
 * @param count - 1..number of samples
 * @returns the ids
 */
function drawSamples(count: number): string[] {
  const ids = [...SAMPLE_IDS];
  for (let i = ids.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [ids[i], ids[j]] = [ids[j], ids[i]];
  }
  return ids.slice(0, count);
}

/**
 * Opens a review session after consent: draws the samples and stores the secret's hash.
 * @param ds - DataSource
 * @param sampleCount - how many samples
 * @returns the session and its secret (to show once)
 */
export async function createReviewSession(ds: DataSource, sampleCount: number): Promise<{ session: StoredReviewSession; secret: string }> {
  const secret = mintSessionSecret();
  const sampleIds = drawSamples(sampleCount);
  const [row] = (await ds.query(
    `INSERT INTO community_review_sessions (secret_hash, sample_ids, scorer_version) VALUES ($1, $2, $3) RETURNING id::text AS id, created_at`,
    [hashSessionSecret(secret), sampleIds, REVIEW_SCORER_VERSION],
  )) as Array<{ id: string; created_at: Date }>;
  return { session: { id: row.id, createdAt: new Date(row.created_at), sampleIds, secretHash: hashSessionSecret(secret), rated: new Map() }, secret };
}

/**
 * A session with its ratings. An id that is no UUID is simply not found.
 * @param ds - DataSource (or a transaction's manager)
 * @param id - the session id
 * @returns the session, or undefined
 */
export async function findReviewSession(ds: Pick<DataSource, 'query'>, id: string): Promise<StoredReviewSession | undefined> {
  if (!UUID.test(id)) return undefined;
  const [row] = (await ds.query(
    `SELECT id::text AS id, created_at, sample_ids, secret_hash FROM community_review_sessions WHERE id = $1`,
    [id.toLowerCase()],
  )) as Array<{ id: string; created_at: Date; sample_ids: string[]; secret_hash: string }>;
  if (!row) return undefined;
  const ratings = (await ds.query(`SELECT sample_id, dimension, rating FROM community_review_ratings WHERE session_id = $1`, [row.id])) as Array<{
    sample_id: string;
    dimension: ReviewDimension;
    rating: number;
  }>;
  const rated = new Map<string, SampleRatings>();
  for (const r of ratings) rated.set(r.sample_id, { ...rated.get(r.sample_id), [r.dimension]: r.rating });
  return { id: row.id, createdAt: new Date(row.created_at), sampleIds: row.sample_ids, secretHash: row.secret_hash, rated };
}

/**
 * Stores ratings of a session's samples in one transaction. Rating a sample again replaces its
 * earlier rating as a whole (every dimension and the comment): a person may change their mind,
 * and the summary counts each person's view of a sample once. Each rating row keeps the engine's
 * value the sample has now, the one revealed to the person right after.
 * @param ds - DataSource
 * @param sessionId - the session (its secret already checked)
 * @param responses - validated responses, one per sample, every sample in the session
 * @returns for each response, whether it replaced an earlier one
 */
export async function recordResponses(ds: DataSource, sessionId: string, responses: ResponseInput[]): Promise<Array<{ sample_id: string; replaced: boolean }>> {
  const samples = reviewSamples();
  return ds.transaction(async (tx) => {
    const accepted: Array<{ sample_id: string; replaced: boolean }> = [];
    for (const response of responses) {
      // xmax is set on a row this statement updated (a conflict), zero on a fresh insert.
      const [row] = (await tx.query(
        `INSERT INTO community_review_responses (session_id, sample_id, comment) VALUES ($1, $2, $3)
         ON CONFLICT (session_id, sample_id) DO UPDATE SET comment = EXCLUDED.comment, updated_at = now()
         RETURNING (xmax <> 0) AS replaced`,
        [sessionId, response.sample_id, response.comment ?? null],
      )) as Array<{ replaced: boolean }>;
      await tx.query(`DELETE FROM community_review_ratings WHERE session_id = $1 AND sample_id = $2`, [sessionId, response.sample_id]);
      const engine = samples.get(response.sample_id)!.engine;
      const dims = REVIEW_DIMENSIONS.filter((d) => response.ratings[d] !== undefined);
      await tx.query(
        `INSERT INTO community_review_ratings (session_id, sample_id, dimension, rating, engine_value)
         SELECT $1, $2, d, r, e FROM unnest($3::text[], $4::smallint[], $5::double precision[]) AS t(d, r, e)`,
        [sessionId, response.sample_id, dims, dims.map((d) => response.ratings[d]), dims.map((d) => engineValue(engine, d))],
      );
      accepted.push({ sample_id: response.sample_id, replaced: row.replaced });
    }
    return accepted;
  });
}

/** A session as the public list shows it: no secret, no ratings, no comments. */
export interface ListedSession {
  session_id: string;
  created_at: string;
  samples: number;
  rated_samples: number;
  last_rated_at: string | null;
}

/**
 * The latest sessions, newest first.
 * @param ds - DataSource
 * @param limit - how many
 * @returns the sessions
 */
export async function listReviewSessions(ds: DataSource, limit: number): Promise<ListedSession[]> {
  const rows = (await ds.query(
    `SELECT s.id::text AS id, s.created_at, cardinality(s.sample_ids) AS samples,
            count(r.sample_id)::int AS rated, max(r.updated_at) AS last_rated_at
       FROM community_review_sessions s
       LEFT JOIN community_review_responses r ON r.session_id = s.id
      GROUP BY s.id
      ORDER BY s.created_at DESC, s.id DESC
      LIMIT $1`,
    [limit],
  )) as Array<{ id: string; created_at: Date; samples: number; rated: number; last_rated_at: Date | null }>;
  return rows.map((r) => ({
    session_id: r.id,
    created_at: new Date(r.created_at).toISOString(),
    samples: r.samples,
    rated_samples: r.rated,
    last_rated_at: r.last_rated_at === null ? null : new Date(r.last_rated_at).toISOString(),
  }));
}
