import type { DataSource } from 'typeorm';
import { scoreText, SCORER_VERSION } from '../../shared/scoring';
import { ATTENTION_CHECKS, attentionCheck, EXCLUDING_FAILURES, passesCheck } from './attention-checks';
import { hashProgramToken, mintProgramToken, tokenHashMatches, WORDING_TOKEN } from '../http/program-token';
import { engineScaleValues, SCALES, type ScaleRatings } from './rating-scales';

type Query = Pick<DataSource, 'query'>;

/** A rater's session, as its token finds it. */
export interface WordingSession {
  id: string;
  consentVersion: string;
  createdAt: Date;
  attentionFailures: number;
  rated: number;
}

/** An item to rate: its id and text, nothing about who wrote it or where it came from. */
export interface ItemToRate {
  item_id: string;
  text: string;
}

/** Content items a session is offered at once; one unanswered attention check is mixed in. */
export const NEXT_ITEMS = 4;

// New consented sources taken into the item pool per draw: each is scored once, text only, on the
// web process's event loop (a few milliseconds per short reply), so the batch stays small.
const SYNC_BATCH = 20;

/**
 * Opens a session for a rater who accepted a consent version.
 * @param ds - DataSource
 * @param consentVersion - the accepted version
 * @returns the session and its token (to show once; only the hash is stored)
 */
export async function createWordingSession(ds: DataSource, consentVersion: string): Promise<{ session: WordingSession; token: string }> {
  const token = mintProgramToken(WORDING_TOKEN);
  const [row] = (await ds.query(
    `INSERT INTO wording_review_sessions (token_hash, consent_version) VALUES ($1, $2) RETURNING id::text AS id, created_at`,
    [hashProgramToken(token), consentVersion],
  )) as Array<{ id: string; created_at: Date }>;
  return { session: { id: row.id, consentVersion, createdAt: new Date(row.created_at), attentionFailures: 0, rated: 0 }, token };
}

/**
 * The session a token hash belongs to.
 * @param ds - DataSource
 * @param tokenHash - SHA-256 of the presented token
 * @returns the session, or undefined (unknown or deleted)
 */
export async function findWordingSession(ds: Query, tokenHash: string): Promise<WordingSession | undefined> {
  const [row] = (await ds.query(
    `SELECT s.id::text AS id, s.token_hash, s.consent_version, s.created_at, s.attention_failures,
            (SELECT count(*)::int FROM wording_review_ratings r WHERE r.session_id = s.id) AS rated
       FROM wording_review_sessions s WHERE s.token_hash = $1`,
    [tokenHash],
  )) as Array<{ id: string; token_hash: string; consent_version: string; created_at: Date; attention_failures: number; rated: number }>;
  if (!row || !tokenHashMatches(row.token_hash, tokenHash)) return undefined;
  return { id: row.id, consentVersion: row.consent_version, createdAt: new Date(row.created_at), attentionFailures: row.attention_failures, rated: row.rated };
}

/**
 * Deletes a session with every rating in it, and so its token.
 * @param ds - DataSource
 * @param sessionId - the session
 * @returns how many ratings went with it (null when the session was already gone)
 */
export async function deleteWordingSession(ds: DataSource, sessionId: string): Promise<{ ratings: number } | null> {
  return ds.transaction(async (tx) => {
    const ratings = (await tx.query(`DELETE FROM wording_review_ratings WHERE session_id = $1 RETURNING item_id`, [sessionId])) as [unknown[], number];
    const sessions = (await tx.query(`DELETE FROM wording_review_sessions WHERE id = $1 RETURNING id`, [sessionId])) as [unknown[], number];
    if (sessions[1] === 0) return null;
    return { ratings: ratings[1] };
  });
}

/**
 * Takes consented text not yet in the pool into it, scoring each text alone (no delay, no
 * profile: raters see the words only, so the engine is judged on the words only), and makes sure
 * every attention check has its item.
 * @param ds - DataSource
 */
async function syncItems(ds: DataSource): Promise<void> {
  const sources = [
    { table: 'free_corpus_entries', column: 'free_corpus_entry_id' },
    { table: 'calibration_shares', column: 'calibration_share_id' },
  ] as const;
  for (const { table, column } of sources) {
    const rows = (await ds.query(
      `SELECT t.id::text AS id, t.text FROM ${table} t
        WHERE NOT EXISTS (SELECT 1 FROM wording_review_items i WHERE i.${column} = t.id)
        ORDER BY t.created_at LIMIT $1`,
      [SYNC_BATCH],
    )) as Array<{ id: string; text: string }>;
    for (const row of rows) {
      const engine = engineScaleValues(scoreText({ text: row.text }));
      await ds.query(
        `INSERT INTO wording_review_items (${column}, scorer_version, engine_human, engine_warm, engine_direct, engine_hesitant)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
        [row.id, SCORER_VERSION, engine.human, engine.warm, engine.direct, engine.hesitant],
      );
    }
  }
  // Pilot replies enter only while their author holds the model consent; withdrawing it deletes the items.
  const replies = (await ds.query(
    `SELECT t.id::text AS id, t.text FROM pilot_turns t JOIN pilot_participants p ON p.id = t.participant_id
      WHERE t.role = 'participant' AND p.model_consent_at IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM wording_review_items i WHERE i.pilot_turn_id = t.id)
      ORDER BY t.created_at LIMIT $1`,
    [SYNC_BATCH],
  )) as Array<{ id: string; text: string }>;
  for (const row of replies) {
    const engine = engineScaleValues(scoreText({ text: row.text }));
    await ds.query(
      `INSERT INTO wording_review_items (pilot_turn_id, scorer_version, engine_human, engine_warm, engine_direct, engine_hesitant)
       SELECT $1, $2, $3, $4, $5, $6 FROM pilot_turns t JOIN pilot_participants p ON p.id = t.participant_id
        WHERE t.id = $1 AND p.model_consent_at IS NOT NULL
       ON CONFLICT DO NOTHING`,
      [row.id, SCORER_VERSION, engine.human, engine.warm, engine.direct, engine.hesitant],
    );
  }
  await ds.query(
    `INSERT INTO wording_review_items (attention_check) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING`,
    [ATTENTION_CHECKS.map((c) => c.key)],
  );
}

/**
 * The next items of a session: up to {@link NEXT_ITEMS} consented items it has not rated, those
 * with the fewest ratings first (so items reach three raters sooner), plus its first unanswered
 * attention check, in random order.
 * @param ds - DataSource
 * @param sessionId - the session
 * @returns the items, with their text and nothing else
 */
export async function nextItems(ds: DataSource, sessionId: string): Promise<ItemToRate[]> {
  await syncItems(ds);
  const content = (await ds.query(
    `SELECT i.id::text AS item_id, coalesce(f.text, c.text, t.text) AS text
       FROM wording_review_items i
       LEFT JOIN free_corpus_entries f ON f.id = i.free_corpus_entry_id
       LEFT JOIN calibration_shares c ON c.id = i.calibration_share_id
       LEFT JOIN pilot_turns t ON t.id = i.pilot_turn_id
      WHERE i.attention_check IS NULL
        AND NOT EXISTS (SELECT 1 FROM wording_review_ratings r WHERE r.item_id = i.id AND r.session_id = $1)
      ORDER BY (SELECT count(*) FROM wording_review_ratings r WHERE r.item_id = i.id), random()
      LIMIT $2`,
    [sessionId, NEXT_ITEMS],
  )) as ItemToRate[];
  const answered = (await ds.query(
    `SELECT i.attention_check FROM wording_review_ratings r JOIN wording_review_items i ON i.id = r.item_id
      WHERE r.session_id = $1 AND i.attention_check IS NOT NULL`,
    [sessionId],
  )) as Array<{ attention_check: string }>;
  const done = new Set(answered.map((a) => a.attention_check));
  const check = ATTENTION_CHECKS.find((c) => !done.has(c.key));
  const items = [...content];
  if (check && content.length > 0) {
    const [row] = (await ds.query(`SELECT id::text AS item_id FROM wording_review_items WHERE attention_check = $1`, [check.key])) as Array<{ item_id: string }>;
    items.push({ item_id: row.item_id, text: check.text });
  }
  // Fisher-Yates, so the check's position says nothing.
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** What recording a rating did. */
export type RatingOutcome = { kind: 'recorded' } | { kind: 'unknown_item' } | { kind: 'already_rated' };

/**
 * Records a session's rating of an item, once: a second rating of the same item is refused. An
 * attention check answered otherwise than its text asks is counted on the session.
 * @param ds - DataSource
 * @param sessionId - the session
 * @param itemId - the item
 * @param ratings - the four ratings
 * @returns what happened
 */
export async function recordRating(ds: DataSource, sessionId: string, itemId: string, ratings: ScaleRatings): Promise<RatingOutcome> {
  return ds.transaction(async (tx) => {
    const [item] = (await tx.query(`SELECT attention_check FROM wording_review_items WHERE id = $1`, [itemId])) as Array<{ attention_check: string | null }>;
    if (!item) return { kind: 'unknown_item' } as const;
    const inserted = (await tx.query(
      `INSERT INTO wording_review_ratings (session_id, item_id, human, warm, direct, hesitant) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT ON CONSTRAINT pk_wording_review_ratings DO NOTHING RETURNING item_id`,
      [sessionId, itemId, ...SCALES.map((s) => ratings[s])],
    )) as unknown[];
    if (inserted.length === 0) return { kind: 'already_rated' } as const;
    const check = item.attention_check === null ? undefined : attentionCheck(item.attention_check);
    if (check && !passesCheck(check, ratings)) {
      await tx.query(`UPDATE wording_review_sessions SET attention_failures = attention_failures + 1 WHERE id = $1`, [sessionId]);
    }
    return { kind: 'recorded' } as const;
  });
}

/** One content rating that may enter calibration, with the engine's values of its item. */
export interface CalibrationRating {
  itemId: string;
  sessionId: string;
  ratings: ScaleRatings;
  engine: ScaleRatings;
}

/**
 * The calibration set: ratings of consented content items by raters who failed fewer than
 * {@link EXCLUDING_FAILURES} attention checks (attention-check answers never enter it), and pilot
 * participants' ratings of agents' turns, only of participants who hold the model consent now (each
 * participant is one rater, each agent turn one item).
 * @param ds - DataSource
 * @returns the ratings
 */
export async function calibrationRatings(ds: Query): Promise<CalibrationRating[]> {
  const rows = (await ds.query(
    `SELECT r.item_id::text AS item_id, r.session_id::text AS session_id, r.human, r.warm, r.direct, r.hesitant,
            i.engine_human, i.engine_warm, i.engine_direct, i.engine_hesitant
       FROM wording_review_ratings r
       JOIN wording_review_items i ON i.id = r.item_id
       JOIN wording_review_sessions s ON s.id = r.session_id
      WHERE i.attention_check IS NULL AND s.attention_failures < $1
     UNION ALL
     SELECT 'pilot:' || f.turn_id::text, 'pilot:' || f.participant_id::text, f.human, f.warm, f.direct, f.hesitant,
            t.engine_human, t.engine_warm, t.engine_direct, t.engine_hesitant
       FROM pilot_feedback f
       JOIN pilot_turns t ON t.id = f.turn_id
       JOIN pilot_participants p ON p.id = f.participant_id
      WHERE p.model_consent_at IS NOT NULL`,
    [EXCLUDING_FAILURES],
  )) as Array<Record<string, number | string>>;
  return rows.map((r) => ({
    itemId: String(r.item_id),
    sessionId: String(r.session_id),
    ratings: { human: Number(r.human), warm: Number(r.warm), direct: Number(r.direct), hesitant: Number(r.hesitant) },
    engine: { human: Number(r.engine_human), warm: Number(r.engine_warm), direct: Number(r.engine_direct), hesitant: Number(r.engine_hesitant) },
  }));
}
