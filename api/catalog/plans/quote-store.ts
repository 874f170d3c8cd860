import type { DataSource, EntityManager } from 'typeorm';

type Queryable = Pick<DataSource | EntityManager, 'query'>;

/** What a quote sells. */
export type QuoteKind = 'new' | 'renewal' | 'upgrade';

/** Whether what a paid quote bought was granted: not yet, done, or tried and failed (retry-activation finishes it). */
export type ActivationStatus = 'none' | 'active' | 'failed';

/** One priced offer for one install and one paying wallet. */
export interface QuoteRow {
  id: string;
  kind: QuoteKind;
  workflowId: string;
  planId: string;
  fromPlanId: string | null;
  wallet: string;
  amountUsdcUnits: number;
  amountLamports: number;
  credits: number;
  periodDays: number;
  expiresAt: Date;
  authorizationId: string | null;
  activationStatus: ActivationStatus;
  activationError: string | null;
  activatedAt: Date | null;
  createdAt: Date;
}

const COLUMNS = `id, kind, workflow_id AS "workflowId", plan_id AS "planId", from_plan_id AS "fromPlanId", wallet,
  amount_usdc_units::float8 AS "amountUsdcUnits", amount_lamports::float8 AS "amountLamports", credits, period_days AS "periodDays",
  expires_at AS "expiresAt", authorization_id AS "authorizationId", activation_status AS "activationStatus",
  activation_error AS "activationError", activated_at AS "activatedAt", created_at AS "createdAt"`;

/**
 * Stores a quote.
 * @param db - DataSource
 * @param q - the quote's terms, its wallet and how long it lives
 * @returns the quote
 */
export async function createQuote(
  db: Queryable,
  q: { kind: QuoteKind; workflowId: string; planId: string; fromPlanId: string | null; wallet: string; usdcUnits: number; lamports: number; credits: number; periodDays: number; ttlSeconds: number },
): Promise<QuoteRow> {
  const rows = (await db.query(
    `INSERT INTO catalog_agent_quotes (kind, workflow_id, plan_id, from_plan_id, wallet, amount_usdc_units, amount_lamports, credits, period_days, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + make_interval(secs => $10)) RETURNING ${COLUMNS}`,
    [q.kind, q.workflowId, q.planId, q.fromPlanId, q.wallet, q.usdcUnits, q.lamports, q.credits, q.periodDays, q.ttlSeconds],
  )) as QuoteRow[];
  return rows[0]!;
}

/**
 * A quote by id.
 * @param db - DataSource or transaction
 * @param id - quote id (a uuid)
 * @param lock - lock the row for the transaction
 * @returns the quote, or undefined
 */
export async function getQuote(db: Queryable, id: string, lock = false): Promise<QuoteRow | undefined> {
  const rows = (await db.query(`SELECT ${COLUMNS} FROM catalog_agent_quotes WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id])) as QuoteRow[];
  return rows[0];
}

/**
 * Binds a quote to the payment that pays it: once, to one authorization. The same authorization
 * binding again (a resumed reservation) is a no-op; another one finds the quote taken.
 * @param db - DataSource
 * @param id - quote id
 * @param authorizationId - the reserved authorization
 * @returns true when the quote is (now) bound to this authorization
 */
export async function bindQuote(db: Queryable, id: string, authorizationId: string): Promise<boolean> {
  const rows = (await db.query(
    `UPDATE catalog_agent_quotes SET authorization_id = $2
      WHERE id = $1 AND (authorization_id IS NULL OR authorization_id = $2) RETURNING id`,
    [id, authorizationId],
  )) as [unknown[], number];
  return rows[0].length === 1;
}

/**
 * Records an activation that failed after settlement (the payment stands; retry-activation finishes it).
 * @param db - DataSource
 * @param id - quote id
 * @param code - a stable code, never a message with data in it
 */
export async function markActivationFailed(db: Queryable, id: string, code: string): Promise<void> {
  await db.query(`UPDATE catalog_agent_quotes SET activation_status = 'failed', activation_error = $2 WHERE id = $1 AND activation_status <> 'active'`, [id, code]);
}
