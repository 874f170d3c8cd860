import type { DataSource, EntityManager } from 'typeorm';

type Queryable = Pick<DataSource | EntityManager, 'query'>;

/** Where a free install workflow stands. */
export type InstallState = 'awaiting_challenge' | 'challenge_verified' | 'install_recorded' | 'verified' | 'revoked';

/** A free install workflow as the API and the re-verification read it. */
export interface InstallRow {
  id: string;
  offeringId: string;
  siteOrigin: string;
  challenge: string;
  challengeExpiresAt: Date;
  state: InstallState;
  pageUrl: string | null;
  challengeVerifiedAt: Date | null;
  installedAt: Date | null;
  verifiedAt: Date | null;
  lastCheckedAt: Date | null;
  revokedAt: Date | null;
  revokedReason: string | null;
  createdAt: Date;
}

interface RawInstall {
  id: string;
  offering_id: string;
  site_origin: string;
  challenge: string;
  challenge_expires_at: Date;
  state: InstallState;
  page_url: string | null;
  challenge_verified_at: Date | null;
  installed_at: Date | null;
  verified_at: Date | null;
  last_checked_at: Date | null;
  revoked_at: Date | null;
  revoked_reason: string | null;
  created_at: Date;
}

const COLUMNS =
  'id, offering_id, site_origin, challenge, challenge_expires_at, state, page_url, challenge_verified_at, installed_at, verified_at, last_checked_at, revoked_at, revoked_reason, created_at';

function toInstall(r: RawInstall): InstallRow {
  return {
    id: r.id,
    offeringId: r.offering_id,
    siteOrigin: r.site_origin,
    challenge: r.challenge,
    challengeExpiresAt: r.challenge_expires_at,
    state: r.state,
    pageUrl: r.page_url,
    challengeVerifiedAt: r.challenge_verified_at,
    installedAt: r.installed_at,
    verifiedAt: r.verified_at,
    lastCheckedAt: r.last_checked_at,
    revokedAt: r.revoked_at,
    revokedReason: r.revoked_reason,
    createdAt: r.created_at,
  };
}

/**
 * Starts a workflow.
 * @param db - DataSource
 * @param input - offering, normalized origin, the challenge and how long it lives
 * @returns the workflow
 */
export async function createInstall(db: Queryable, input: { offeringId: string; siteOrigin: string; challenge: string; ttlSeconds: number }): Promise<InstallRow> {
  const rows = (await db.query(
    `INSERT INTO catalog_install_workflows (offering_id, site_origin, challenge, challenge_expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING ${COLUMNS}`,
    [input.offeringId, input.siteOrigin, input.challenge, input.ttlSeconds],
  )) as RawInstall[];
  return toInstall(rows[0]);
}

/**
 * A workflow by id.
 * @param db - DataSource
 * @param id - workflow id (a uuid; validated by the caller)
 * @returns the workflow, or undefined
 */
export async function getInstall(db: Queryable, id: string): Promise<InstallRow | undefined> {
  const rows = (await db.query(`SELECT ${COLUMNS} FROM catalog_install_workflows WHERE id = $1`, [id])) as RawInstall[];
  return rows[0] ? toInstall(rows[0]) : undefined;
}

/**
 * Moves a workflow from one state to the next, only if it is still in the state the caller saw
 * (two concurrent calls move it once).
 * @param db - DataSource
 * @param id - workflow id
 * @param from - the state it must be in
 * @param to - the next state
 * @param set - the columns the step fills (fixed SQL fragments chosen by the caller, never input)
 * @param params - values of `$2`... in `set`
 * @returns the workflow after the step, or undefined when it was not in `from`
 */
async function step(db: Queryable, id: string, from: InstallState, to: InstallState, set: string, params: unknown[] = []): Promise<InstallRow | undefined> {
  const updated = (await db.query(
    `UPDATE catalog_install_workflows SET state = '${to}', ${set}, updated_at = now()
      WHERE id = $1 AND state = '${from}' RETURNING ${COLUMNS}`,
    [id, ...params],
  )) as [RawInstall[], number];
  return updated[0][0] ? toInstall(updated[0][0]) : undefined;
}

/**
 * The challenge was found on the site.
 * @param db - DataSource
 * @param id - workflow id
 * @returns the workflow, or undefined when it had moved on
 */
export const markChallengeVerified = (db: Queryable, id: string) => step(db, id, 'awaiting_challenge', 'challenge_verified', 'challenge_verified_at = now()');

/**
 * The caller recorded where the snippet goes.
 * @param db - DataSource
 * @param id - workflow id
 * @param pageUrl - the page, on the workflow's origin
 * @returns the workflow, or undefined when it had moved on
 */
export const recordInstallation = (db: Queryable, id: string, pageUrl: string) =>
  step(db, id, 'challenge_verified', 'install_recorded', 'page_url = $2, installed_at = now()', [pageUrl]);

/**
 * The snippet was found on the live page: the install is verified.
 * @param db - DataSource
 * @param id - workflow id
 * @returns the workflow, or undefined when it had moved on
 */
export const markVerified = (db: Queryable, id: string) => step(db, id, 'install_recorded', 'verified', 'verified_at = now(), last_checked_at = now()');

/**
 * A re-verification no longer found the install: its badge is revoked.
 * @param db - DataSource
 * @param id - workflow id
 * @param reason - what disappeared (challenge_missing, snippet_missing, or the guard's reason)
 * @returns the workflow, or undefined when it was not verified any more
 */
export const revokeInstall = (db: Queryable, id: string, reason: string) =>
  step(db, id, 'verified', 'revoked', 'revoked_at = now(), revoked_reason = $2, last_checked_at = now()', [reason]);

/**
 * A re-verification found the install still live.
 * @param db - DataSource
 * @param id - workflow id
 */
export async function touchInstall(db: Queryable, id: string): Promise<void> {
  await db.query(`UPDATE catalog_install_workflows SET last_checked_at = now(), updated_at = now() WHERE id = $1 AND state = 'verified'`, [id]);
}

/**
 * The verified installs due for a re-check (last checked longer ago than the interval), the
 * least recently checked first.
 * @param db - DataSource
 * @param olderThanSeconds - how long ago the last check must be
 * @param limit - how many at most in one run
 * @returns the installs
 */
export async function installsDueForCheck(db: Queryable, olderThanSeconds: number, limit: number): Promise<InstallRow[]> {
  const rows = (await db.query(
    `SELECT ${COLUMNS} FROM catalog_install_workflows
      WHERE state = 'verified' AND (last_checked_at IS NULL OR last_checked_at < now() - make_interval(secs => $1))
      ORDER BY last_checked_at ASC NULLS FIRST LIMIT $2`,
    [olderThanSeconds, limit],
  )) as RawInstall[];
  return rows.map(toInstall);
}

/**
 * How many installs are verified and live now (revoked ones not counted), for the public totals.
 * @param db - DataSource or transaction
 * @returns the count
 */
export async function countVerifiedInstalls(db: Queryable): Promise<number> {
  const rows = (await db.query(`SELECT count(*)::int AS n FROM catalog_install_workflows WHERE state = 'verified'`)) as Array<{ n: number }>;
  return rows[0]?.n ?? 0;
}
