import type { DataSource, EntityManager } from 'typeorm';
import type { CoachingCertificateRecord } from '../../shared/coaching/certificate';

type Queryable = Pick<DataSource | EntityManager, 'query'>;

/** An enrollment as the API reads it (never its secret hash). */
export interface EnrollmentRow {
  id: string;
  packId: string;
  wallet: string;
  attemptsTotal: number;
  attemptsLeft: number;
  certificateId: string | null;
  createdAt: Date;
}

const COLUMNS = `id, pack_id AS "packId", wallet, attempts_total AS "attemptsTotal", attempts_left AS "attemptsLeft",
  certificate_id AS "certificateId", created_at AS "createdAt"`;

/**
 * Creates the enrollment a payment buys, with no secret yet (minted after settlement). Runs inside
 * the paid work: a resumed reservation finds the same enrollment instead of a second one.
 * @param db - DataSource
 * @param input - the payer, the pack, the attempts included, the payment's authorization
 * @returns the enrollment
 */
export async function createEnrollment(
  db: Queryable,
  input: { wallet: string; packId: string; attempts: number; authorizationId: string },
): Promise<EnrollmentRow> {
  const rows = (await db.query(
    `WITH ins AS (
       INSERT INTO coaching_enrollments (pack_id, wallet, attempts_total, attempts_left, authorization_id)
       VALUES ($1, $2, $3, $3, $4)
       ON CONFLICT ON CONSTRAINT uq_coaching_enrollments_authorization_id DO NOTHING
       RETURNING ${COLUMNS})
     SELECT * FROM ins
     UNION ALL SELECT ${COLUMNS} FROM coaching_enrollments WHERE authorization_id = $4
     LIMIT 1`,
    [input.packId, input.wallet, input.attempts, input.authorizationId],
  )) as EnrollmentRow[];
  if (!rows[0]) throw new Error('enrollment vanished after insert');
  return rows[0];
}

/**
 * Sets an enrollment's secret hash, once (only while it has none). Call it only from the first
 * delivery after settlement.
 * @param db - DataSource
 * @param authorizationId - the enrollment's payment
 * @param secretHash - the new secret's hash
 * @returns true when this call set it
 */
export async function setSecretOnce(db: Queryable, authorizationId: string, secretHash: string): Promise<boolean> {
  const [rows] = (await db.query(
    `UPDATE coaching_enrollments SET secret_hash = $2 WHERE authorization_id = $1 AND secret_hash IS NULL RETURNING id`,
    [authorizationId, secretHash],
  )) as [unknown[], number];
  return rows.length === 1;
}

/**
 * Replaces an enrollment's secret (a payer's claim): the previous secret stops working at once.
 * @param db - DataSource
 * @param authorizationId - the enrollment's payment
 * @param secretHash - the new secret's hash
 * @returns true when the enrollment exists
 */
export async function replaceSecret(db: Queryable, authorizationId: string, secretHash: string): Promise<boolean> {
  const [rows] = (await db.query(`UPDATE coaching_enrollments SET secret_hash = $2 WHERE authorization_id = $1 RETURNING id`, [authorizationId, secretHash])) as [
    unknown[],
    number,
  ];
  return rows.length === 1;
}

/** Seconds between two secrets a claim may issue for one enrollment. */
export const SECRET_REISSUE_WINDOW_SECONDS = 30;

/**
 * Takes the right to issue an enrollment a new secret on a claim: granted to one claim per
 * {@link SECRET_REISSUE_WINDOW_SECONDS} (the row's issue time moves with it), so of several
 * concurrent claims exactly one gets a secret.
 * @param db - DataSource
 * @param authorizationId - the enrollment's payment
 * @returns seconds to wait when refused, or 0 when granted
 */
export async function takeSecretReissue(db: Queryable, authorizationId: string): Promise<number> {
  const [granted] = (await db.query(
    `UPDATE coaching_enrollments SET secret_issued_at = now()
      WHERE authorization_id = $1
        AND (secret_issued_at IS NULL OR secret_issued_at <= now() - make_interval(secs => $2))
      RETURNING id`,
    [authorizationId, SECRET_REISSUE_WINDOW_SECONDS],
  )) as [unknown[], number];
  if (granted.length === 1) return 0;
  const rows = (await db.query(
    `SELECT GREATEST(1, CEIL(EXTRACT(EPOCH FROM secret_issued_at + make_interval(secs => $2) - now())))::int AS wait FROM coaching_enrollments WHERE authorization_id = $1`,
    [authorizationId, SECRET_REISSUE_WINDOW_SECONDS],
  )) as Array<{ wait: number }>;
  return rows[0]?.wait ?? 0;
}

/**
 * The enrollment a secret opens.
 * @param db - DataSource
 * @param secretHash - the secret's hash
 * @returns the enrollment, or undefined
 */
export async function findEnrollmentBySecret(db: Queryable, secretHash: string): Promise<EnrollmentRow | undefined> {
  const rows = (await db.query(`SELECT ${COLUMNS} FROM coaching_enrollments WHERE secret_hash = $1`, [secretHash])) as EnrollmentRow[];
  return rows[0];
}

/**
 * Takes one attempt and opens it, in one statement: the conditional decrement never lets
 * `attempts_left` go below zero, however many drills race (each row update is serialized by
 * PostgreSQL's row lock and re-checks `attempts_left > 0` on the latest row version).
 * @param db - DataSource
 * @param enrollmentId - the enrollment
 * @param drillId - the drill attempted
 * @returns the attempt id and the attempts left after it, or undefined when none was left
 */
export async function takeAttempt(db: Queryable, enrollmentId: string, drillId: string): Promise<{ attemptId: string; attemptsLeft: number } | undefined> {
  const rows = (await db.query(
    `WITH taken AS (
       UPDATE coaching_enrollments SET attempts_left = attempts_left - 1
        WHERE id = $1 AND attempts_left > 0
        RETURNING id, attempts_left)
     INSERT INTO coaching_attempts (enrollment_id, drill_id)
     SELECT id, $2 FROM taken
     RETURNING id AS "attemptId", (SELECT attempts_left FROM taken) AS "attemptsLeft"`,
    [enrollmentId, drillId],
  )) as Array<{ attemptId: string; attemptsLeft: number }>;
  return rows[0];
}

/**
 * Gives an attempt back when its scoring failed (a server fault is never the caller's attempt).
 * Only an attempt still `scoring` is given back, so it happens at most once.
 * @param db - DataSource
 * @param attemptId - the attempt
 * @returns nothing
 */
export async function giveAttemptBack(db: Queryable, attemptId: string): Promise<void> {
  await db.query(
    `WITH failed AS (
       UPDATE coaching_attempts SET status = 'failed' WHERE id = $1 AND status = 'scoring' RETURNING enrollment_id)
     UPDATE coaching_enrollments SET attempts_left = attempts_left + 1 WHERE id IN (SELECT enrollment_id FROM failed)`,
    [attemptId],
  );
}

/** An attempt's scored outcome. */
export interface ScoredAttempt {
  attemptId: string;
  eqScore: number;
  cleared: boolean;
  scorerVersion: string;
}

/**
 * Records an attempt's score.
 * @param db - DataSource or the transaction's manager
 * @param attempt - the outcome
 * @returns nothing
 */
export async function recordScore(db: Queryable, attempt: ScoredAttempt): Promise<void> {
  await db.query(
    `UPDATE coaching_attempts SET status = 'scored', eq_score = $2, cleared = $3, scorer_version = $4, scored_at = now() WHERE id = $1`,
    [attempt.attemptId, attempt.eqScore, attempt.cleared, attempt.scorerVersion],
  );
}

/**
 * The best score per drill over an enrollment's scored attempts, and how many attempts were used.
 * @param db - DataSource or the transaction's manager
 * @param enrollmentId - the enrollment
 * @returns best score by drill id, and the scored attempt count
 */
export async function bestScores(db: Queryable, enrollmentId: string): Promise<{ best: Map<string, number>; scored: Map<string, number> }> {
  const rows = (await db.query(
    `SELECT drill_id, max(eq_score) AS best, count(*)::int AS n FROM coaching_attempts
      WHERE enrollment_id = $1 AND status = 'scored' GROUP BY drill_id`,
    [enrollmentId],
  )) as Array<{ drill_id: string; best: number; n: number }>;
  return { best: new Map(rows.map((r) => [r.drill_id, r.best])), scored: new Map(rows.map((r) => [r.drill_id, r.n])) };
}

/**
 * Locks an enrollment for the rest of the transaction: concurrent drills that finish together
 * check the certificate one after another, and the later one sees the earlier one's score.
 * @param em - the transaction's manager
 * @param enrollmentId - the enrollment
 * @returns the enrollment
 */
export async function lockEnrollment(em: Queryable, enrollmentId: string): Promise<EnrollmentRow> {
  const rows = (await em.query(`SELECT ${COLUMNS} FROM coaching_enrollments WHERE id = $1 FOR UPDATE`, [enrollmentId])) as EnrollmentRow[];
  if (!rows[0]) throw new Error('enrollment vanished');
  return rows[0];
}

/**
 * Issues the certificate, once.
 * @param em - the transaction's manager
 * @param enrollmentId - the enrollment
 * @param record - the certificate's frozen public content
 * @returns true when this call issued it
 */
export async function issueCertificate(em: Queryable, enrollmentId: string, record: CoachingCertificateRecord): Promise<boolean> {
  const [rows] = (await em.query(
    `UPDATE coaching_enrollments SET certificate_id = $2, certificate = $3::jsonb, certified_at = $4
      WHERE id = $1 AND certificate_id IS NULL RETURNING id`,
    [enrollmentId, record.certificate_id, JSON.stringify(record), record.certified_at],
  )) as [unknown[], number];
  return rows.length === 1;
}
