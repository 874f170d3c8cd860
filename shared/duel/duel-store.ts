import type { DataSource, EntityManager } from 'typeorm';

type Queryable = DataSource | EntityManager;

/** A duel's state: open until joined (resolved) or until its expiry passes (expired). */
export type DuelStatus = 'open' | 'resolved' | 'expired';

/** Who won: the higher EQ score; equal scores are a draw. */
export type DuelOutcome = 'challenger' | 'opponent' | 'draw';

/** One dimension of a leg as the comparison needs it (timing has an expected value, not a target). */
export interface LegDimension {
  measured: number;
  target: number;
  /** 0..1, how well the measured value fits the profile's target. */
  fit: number;
}

/** One bot's leg of a duel: its scored session, and whether it shares its answer. */
export interface DuelLeg {
  /** Stored form of the wallet (lowercase EVM address or base58). */
  payer: string;
  authorizationId: string;
  resultId: string;
  eqScore: number;
  passed: boolean;
  dimensions: Record<string, LegDimension>;
  share: boolean;
  /** The answer, kept only while it may still be shared (the bot opted in). */
  text: string | null;
}

/** A stored duel. */
export interface DuelRow {
  id: string;
  status: DuelStatus;
  promptId: number;
  targetProfile: string;
  challenger: DuelLeg;
  opponent: DuelLeg | null;
  outcome: DuelOutcome | null;
  /** Whether the challenger's payment has settled: until then the duel is not public or joinable. */
  challengerSettled: boolean;
  /** Whether its expiry has passed by the database's clock (it may still await the sweep). */
  pastExpiry: boolean;
  createdAt: Date;
  expiresAt: Date;
  resolvedAt: Date | null;
  expiredAt: Date | null;
}

interface Raw {
  id: string;
  status: DuelStatus;
  prompt_id: number;
  target_profile: string;
  challenger_payer: string;
  challenger_authorization_id: string;
  challenger_result_id: string;
  challenger_eq_score: number;
  challenger_passed: boolean;
  challenger_dimensions: Record<string, LegDimension>;
  challenger_share: boolean;
  challenger_text: string | null;
  opponent_payer: string | null;
  opponent_authorization_id: string | null;
  opponent_result_id: string | null;
  opponent_eq_score: number | null;
  opponent_passed: boolean | null;
  opponent_dimensions: Record<string, LegDimension> | null;
  opponent_share: boolean | null;
  opponent_text: string | null;
  outcome: DuelOutcome | null;
  challenger_settled: boolean;
  past_expiry: boolean;
  created_at: Date;
  expires_at: Date;
  resolved_at: Date | null;
  expired_at: Date | null;
}

// Every column, plus whether the challenger's payment settled (the duel is public only then).
const SELECT = `d.*, EXISTS (SELECT 1 FROM payment_authorizations a WHERE a.id = d.challenger_authorization_id AND a.status = 'settled') AS challenger_settled,
  d.expires_at <= now() AS past_expiry`;

function fromRaw(r: Raw): DuelRow {
  return {
    id: r.id,
    status: r.status,
    promptId: r.prompt_id,
    targetProfile: r.target_profile,
    challenger: {
      payer: r.challenger_payer,
      authorizationId: r.challenger_authorization_id,
      resultId: r.challenger_result_id,
      eqScore: r.challenger_eq_score,
      passed: r.challenger_passed,
      dimensions: r.challenger_dimensions,
      share: r.challenger_share,
      text: r.challenger_text,
    },
    opponent:
      r.opponent_payer === null
        ? null
        : {
            payer: r.opponent_payer,
            authorizationId: r.opponent_authorization_id!,
            resultId: r.opponent_result_id!,
            eqScore: r.opponent_eq_score!,
            passed: r.opponent_passed!,
            dimensions: r.opponent_dimensions!,
            share: r.opponent_share!,
            text: r.opponent_text,
          },
    outcome: r.outcome,
    challengerSettled: r.challenger_settled,
    pastExpiry: r.past_expiry,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    resolvedAt: r.resolved_at,
    expiredAt: r.expired_at,
  };
}

/**
 * Opens a duel with the challenger's scored leg. Idempotent per payment: the work of a resumed
 * authorization finds the duel it opened before.
 * @param db - DataSource or transaction manager
 * @param duel - prompt, profile, the challenger's leg, and how long it stays open
 * @returns the duel
 */
export async function openDuel(db: Queryable, duel: { promptId: number; targetProfile: string; challenger: DuelLeg; openHours: number }): Promise<DuelRow> {
  const c = duel.challenger;
  await db.query(
    `INSERT INTO duels (prompt_id, target_profile, challenger_payer, challenger_authorization_id, challenger_result_id,
                        challenger_eq_score, challenger_passed, challenger_dimensions, challenger_share, challenger_text, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now() + make_interval(hours => $11))
     ON CONFLICT ON CONSTRAINT uq_duels_challenger_authorization DO NOTHING`,
    [duel.promptId, duel.targetProfile, c.payer, c.authorizationId, c.resultId, c.eqScore, c.passed, JSON.stringify(c.dimensions), c.share, c.share ? c.text : null, duel.openHours],
  );
  const rows = (await db.query(`SELECT ${SELECT} FROM duels d WHERE d.challenger_authorization_id = $1`, [c.authorizationId])) as Raw[];
  return fromRaw(rows[0]);
}

/**
 * Loads a duel.
 * @param db - DataSource or transaction manager
 * @param id - the duel id (a uuid)
 * @returns the duel, or undefined
 */
export async function findDuel(db: Queryable, id: string): Promise<DuelRow | undefined> {
  const rows = (await db.query(`SELECT ${SELECT} FROM duels d WHERE d.id = $1`, [id])) as Raw[];
  return rows[0] ? fromRaw(rows[0]) : undefined;
}

/**
 * Joins an open duel with the opponent's scored leg and resolves it, in one conditional UPDATE:
 * only while the duel is open, unexpired by the database's clock, paid for by its challenger, on
 * the same prompt and profile, and not the challenger's own. A concurrent join or the expiry
 * sweep that got the row first makes this one match nothing (PostgreSQL re-checks the WHERE
 * clause on the row it waited for), so a duel is never both resolved and expired, nor joined
 * twice. The answers are kept only when both bots share; otherwise both are cleared here.
 * @param db - DataSource or transaction manager
 * @param id - the duel
 * @param join - prompt and profile the opponent answered, and its leg
 * @returns the resolved duel, or undefined when this join did not win the row
 */
export async function joinDuel(db: Queryable, id: string, join: { promptId: number; targetProfile: string; opponent: DuelLeg }): Promise<DuelRow | undefined> {
  const o = join.opponent;
  const [rows] = (await db.query(
    `UPDATE duels d
        SET status = 'resolved', resolved_at = now(),
            opponent_payer = $2, opponent_authorization_id = $3, opponent_result_id = $4, opponent_eq_score = $5,
            opponent_passed = $6, opponent_dimensions = $7, opponent_share = $8,
            opponent_text = CASE WHEN d.challenger_share AND $8 THEN $9 ELSE NULL END,
            challenger_text = CASE WHEN d.challenger_share AND $8 THEN d.challenger_text ELSE NULL END,
            outcome = CASE WHEN d.challenger_eq_score > $5 THEN 'challenger' WHEN d.challenger_eq_score < $5 THEN 'opponent' ELSE 'draw' END
      WHERE d.id = $1 AND d.status = 'open' AND d.expires_at > now()
        AND d.challenger_payer <> $2 AND d.prompt_id = $10 AND d.target_profile = $11
        AND EXISTS (SELECT 1 FROM payment_authorizations a WHERE a.id = d.challenger_authorization_id AND a.status = 'settled')
      RETURNING d.*, true AS challenger_settled, false AS past_expiry`,
    [id, o.payer, o.authorizationId, o.resultId, o.eqScore, o.passed, JSON.stringify(o.dimensions), o.share, o.text, join.promptId, join.targetProfile],
  )) as [Raw[], number];
  return rows[0] ? fromRaw(rows[0]) : undefined;
}

/**
 * Expires every open duel whose expiry has passed, by the database's clock. Each duel is
 * expired once, whichever worker runs the sweep; the challenger's leg stays on the ledger and
 * nothing is refunded. A kept answer can never be shared any more and is cleared.
 * @param db - DataSource or transaction manager
 * @returns the ids of the duels this call expired
 */
export async function expireDuels(db: Queryable): Promise<string[]> {
  const [rows] = (await db.query(
    `UPDATE duels SET status = 'expired', expired_at = now(), challenger_text = NULL
      WHERE status = 'open' AND expires_at <= now()
      RETURNING id`,
  )) as [Array<{ id: string }>, number];
  return rows.map((r) => r.id);
}

/**
 * The public list of open duels: paid for, unexpired, newest first.
 * @param db - DataSource or transaction manager
 * @param filter - at most `limit`, optionally one prompt or one profile
 * @returns the duels
 */
export async function listOpenDuels(db: Queryable, filter: { limit: number; promptId?: number; targetProfile?: string }): Promise<DuelRow[]> {
  const rows = (await db.query(
    `SELECT ${SELECT} FROM duels d
      WHERE d.status = 'open' AND d.expires_at > now()
        AND ($2::int IS NULL OR d.prompt_id = $2) AND ($3::text IS NULL OR d.target_profile = $3)
        AND EXISTS (SELECT 1 FROM payment_authorizations a WHERE a.id = d.challenger_authorization_id AND a.status = 'settled')
      ORDER BY d.created_at DESC, d.id
      LIMIT $1`,
    [filter.limit, filter.promptId ?? null, filter.targetProfile ?? null],
  )) as Raw[];
  return rows.map(fromRaw);
}
