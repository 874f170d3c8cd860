import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { AuthorizationStatus } from '../db/entities';
import { runHotStatement, type HotStatement } from '../db/hot-statement';
import { PRODUCT_TERMS, PRODUCTS, SOL_ASSET } from '../products';
import { newReferralCode, referralCodeCtes, referralCodeFor } from './referral-code';

/** The unique key of an authorization: one nonce of one payer on one asset and network. */
export interface AuthorizationKey {
  network: string;
  asset: string;
  payer: string;
  nonce: string;
}

/** What settlement needs, stored with the reservation (plain JSON). */
export type StoredPayment =
  | { rail: 'exact-evm'; payload: Record<string, unknown>; requirements: Record<string, unknown> }
  | { rail: 'sol-transfer'; signature: string; lamports: string; slot: number | null };

/** A reservation to make before any work starts. */
export interface NewAuthorization extends AuthorizationKey {
  rail: StoredPayment['rail'];
  x402Version: number;
  /** Request path the payment is for. */
  resource: string;
  product: string;
  tier: string | null;
  /** Atomic units, decimal string. */
  amount: string;
  requestHash: string;
  payment: StoredPayment;
}

/** What the ledger row records about the session's outcome. */
export interface SessionSummary {
  profile: string | null;
  score: number | null;
  passed: boolean | null;
  scorerVersion: string;
  /** A referral code to bind at settlement (a new wallet's first purchase; section 8 "Referral program"). */
  referralCode?: string | null;
  /** The persona targets in force when scored, per text dimension; frozen into the ledger row. */
  personaTargets?: Record<string, { target: number; tolerance: number }> | null;
  /** The measured value of each text dimension. */
  measuredDimensions?: Record<string, number> | null;
  /**
   * The reply's text, only when the request opted in to storing it for training
   * (`store_text_for_training`); written to the ledger row and dropped from this summary at settlement.
   */
  trainingText?: string | null;
}

/** A stored authorization: the reservation, and what happened to it since. */
export interface AuthorizationRow extends NewAuthorization {
  id: string;
  resultId: string;
  status: AuthorizationStatus;
  response: Record<string, unknown> | null;
  summary: SessionSummary | null;
  settleAttempts: number;
  lastError: string | null;
  /** Since when a settlement was sent without a known outcome; see the entity. */
  settleUnknownSince: Date | null;
  /** When the settlement failed for good (the authorization can never execute); see the entity. */
  settleFailedAt: Date | null;
  transaction: string | null;
  createdAt: Date;
  settledAt: Date | null;
}

// Columns aliased to the AuthorizationRow names, so rows need no mapping.
const COLUMNS = `id, rail, network, asset, payer, nonce, x402_version AS "x402Version", resource, product, tier,
  amount::text AS amount, request_hash AS "requestHash", result_id AS "resultId", status, payment, response, summary,
  settle_attempts AS "settleAttempts", last_error AS "lastError", settle_unknown_since AS "settleUnknownSince",
  settle_failed_at AS "settleFailedAt", transaction, created_at AS "createdAt", settled_at AS "settledAt"`;

type Queryable = DataSource | EntityManager;

// The statements of every paid call, prepared once per connection (see runHotStatement).
const FIND_BY_KEY: HotStatement = {
  name: 'authorization_find_by_key',
  text: `SELECT ${COLUMNS} FROM payment_authorizations WHERE network = $1 AND asset = $2 AND payer = $3 AND nonce = $4`,
};
const GET_BY_ID: HotStatement = { name: 'authorization_get', text: `SELECT ${COLUMNS} FROM payment_authorizations WHERE id = $1` };
const RESERVE: HotStatement = {
  name: 'authorization_reserve',
  text: `INSERT INTO payment_authorizations
           (rail, network, asset, payer, nonce, x402_version, resource, product, tier, amount, request_hash, result_id, payment)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
         ON CONFLICT ON CONSTRAINT uq_payment_authorizations_nonce DO NOTHING
         RETURNING ${COLUMNS}`,
};
// The result and the payer's referral code (every per-call response carries it, section 8) in one
// statement: the code is made on the wallet's first paid call, in the same round trip.
const STORE_RESULT: HotStatement = {
  name: 'authorization_store_result',
  text: `WITH ${referralCodeCtes('$5', '$6')}
         UPDATE payment_authorizations
            SET status = 'scored', response = $2::jsonb || jsonb_build_object('referral_code', (SELECT code FROM referral_code)),
                summary = $3, calibration_text = $4, updated_at = now()
          WHERE id = $1 AND status = 'reserved' AND EXISTS (SELECT 1 FROM referral_code)
          RETURNING ${COLUMNS}`,
};
// The whole settlement in one call of the function of migration 1795770000000.
// It also says whether the payer has referral rewards waiting (from purchases settled before this
// statement), so the delivery runs its reward statement only for those who do.
const RECORD_SETTLEMENT: HotStatement = {
  name: 'record_settlement',
  text: `SELECT s.id, s.product, s.tier, s.profile, s.score, s.passed, s.result_id AS "resultId", s.network, s.asset,
                s.amount::text AS amount, s.transaction, s.payer, s.settled_at AS "settledAt",
                EXISTS (SELECT 1 FROM referrals r WHERE r.referrer_wallet = s.payer AND r.credits_earned > r.credits_delivered) AS "rewardsDue"
           FROM record_settlement($1, $2, $3, $4, $5, $6) s`,
};

/**
 * Looks an authorization up by its unique key.
 * @param db - DataSource or transaction manager
 * @param key - network, asset, payer, nonce
 * @returns the row, or undefined
 */
export async function findAuthorization(db: Queryable, key: AuthorizationKey): Promise<AuthorizationRow | undefined> {
  const rows = await runHotStatement<AuthorizationRow>(db, FIND_BY_KEY, [key.network, key.asset, key.payer, key.nonce]);
  return rows[0];
}

/**
 * Loads an authorization by id.
 * @param db - DataSource or transaction manager
 * @param id - its id
 * @returns the row, or undefined
 */
export async function getAuthorization(db: Queryable, id: string): Promise<AuthorizationRow | undefined> {
  const rows = await runHotStatement<AuthorizationRow>(db, GET_BY_ID, [id]);
  return rows[0];
}

/**
 * Reserves an authorization before any work starts. Exactly one of any number of concurrent
 * reservations of one key creates the row; the others get the existing row back.
 * @param db - DataSource or transaction manager
 * @param auth - the reservation
 * @returns whether this call created it, and the row
 */
export async function reserveAuthorization(
  db: Queryable,
  auth: NewAuthorization,
): Promise<{ created: boolean; row: AuthorizationRow }> {
  const inserted = await runHotStatement<AuthorizationRow>(db, RESERVE, [
    auth.rail,
    auth.network,
    auth.asset,
    auth.payer,
    auth.nonce,
    auth.x402Version,
    auth.resource,
    auth.product,
    auth.tier,
    auth.amount,
    auth.requestHash,
    randomUUID(),
    JSON.stringify(auth.payment),
  ]);
  if (inserted[0]) return { created: true, row: inserted[0] };
  const existing = await findAuthorization(db, auth);
  if (!existing) throw new Error('authorization vanished between insert and select');
  return { created: false, row: existing };
}

/**
 * Gives a reservation back when the work failed in a way that charges nothing (the request can
 * never succeed). Only an unscored reservation is released; the authorization can then be used again.
 * @param db - DataSource or transaction manager
 * @param id - the authorization
 */
export async function releaseAuthorization(db: Queryable, id: string): Promise<void> {
  await db.query(`DELETE FROM payment_authorizations WHERE id = $1 AND status = 'reserved'`, [id]);
}

/**
 * Stores the response body before settlement, so a lost response can be replayed, with the payer's
 * referral code added as `referral_code`. The first stored response wins: a concurrent replay that
 * scored the same request again changes nothing.
 * @param db - DataSource or transaction manager
 * @param authorization - the reserved authorization: its id and payer
 * @param result - the body, the ledger summary and any calibration text
 * @returns the row as stored
 */
export async function storeResult(
  db: Queryable,
  authorization: Pick<AuthorizationRow, 'id' | 'payer'>,
  result: { response: Record<string, unknown>; summary: SessionSummary; calibrationText: string | null },
): Promise<AuthorizationRow> {
  const { id, payer } = authorization;
  const store = () =>
    runHotStatement<AuthorizationRow>(db, STORE_RESULT, [
      id,
      JSON.stringify(result.response),
      JSON.stringify(result.summary),
      result.calibrationText,
      payer,
      newReferralCode(),
    ]);
  let row: AuthorizationRow | undefined = (await store())[0];
  if (!row) {
    // Nothing stored. Not reserved any more: a concurrent replay stored its (identical) result
    // first, and this is it. Still reserved: the statement found no code for the payer (see
    // referralCodeCtes); make it and store again.
    row = await getAuthorization(db, id);
    if (row?.status === 'reserved') {
      await referralCodeFor(db, payer);
      row = (await store())[0] ?? (await getAuthorization(db, id));
    }
  }
  if (!row) throw new Error(`authorization ${id} not found`);
  return row;
}

/**
 * Counts a failed settlement attempt and keeps its reason; the authorization stays replayable.
 * @param db - DataSource or transaction manager
 * @param id - the authorization
 * @param reason - the facilitator's error reason or the transport fault
 */
export async function recordSettleFailure(db: Queryable, id: string, reason: string): Promise<void> {
  await db.query(
    `UPDATE payment_authorizations SET settle_attempts = settle_attempts + 1, last_error = $2, updated_at = now()
      WHERE id = $1 AND status = 'scored'`,
    [id, reason.slice(0, 500)],
  );
}

/**
 * Records that a settlement was sent and its outcome is not known (answer lost, timed out, or not
 * proving that nothing moved, and the chain did not settle the question): the reconciler asks the
 * chain until it knows. The first such moment is kept.
 * @param db - DataSource or transaction manager
 * @param id - the authorization
 * @param reason - the facilitator's error reason or the transport fault
 * @param countAttempt - also count a finished settlement attempt, so the next request makes a new settlement job
 */
export async function recordSettleUnknown(db: Queryable, id: string, reason: string, countAttempt: boolean): Promise<void> {
  await db.query(
    `UPDATE payment_authorizations
        SET settle_unknown_since = coalesce(settle_unknown_since, now()), last_error = $2,
            settle_attempts = settle_attempts + $3, updated_at = now()
      WHERE id = $1 AND status = 'scored'`,
    [id, reason.slice(0, 500), countAttempt ? 1 : 0],
  );
}

/**
 * Records that the chain showed the authorization can never execute any more (expired unused, or
 * its nonce burnt otherwise): the settlement failed for good and nothing was charged.
 * @param db - DataSource or transaction manager
 * @param id - the authorization
 * @param reason - `authorization_expired`, `authorization_canceled` or `authorization_used_otherwise`
 * @returns whether this call marked it (false: settled, or marked before)
 */
export async function recordSettleFailedForGood(db: Queryable, id: string, reason: string): Promise<boolean> {
  const rows = (await db.query(
    `UPDATE payment_authorizations
        SET settle_failed_at = now(), last_error = $2, settle_attempts = settle_attempts + 1, updated_at = now()
      WHERE id = $1 AND status = 'scored' AND settle_failed_at IS NULL
      RETURNING id`,
    [id, reason.slice(0, 500)],
  )) as [Array<{ id: string }>, number];
  // An UPDATE ... RETURNING answers [rows, count] through TypeORM.
  return rows[0].length > 0;
}

/**
 * The exact-EVM authorizations the settlement reconciler looks at: scored, not failed for good,
 * and either with an unknown settlement outcome or left unsettled longer than `staleAfterSeconds`
 * (a worker that died mid-settlement records nothing). Legacy SOL transfers are final on chain
 * when accepted and are never looked at. Oldest first.
 * @param db - DataSource or transaction manager
 * @param staleAfterSeconds - age of a scored authorization without a settlement
 * @param limit - at most this many
 * @returns their ids
 */
export async function findUnsettledAuthorizations(db: Queryable, staleAfterSeconds: number, limit: number): Promise<string[]> {
  const rows = (await db.query(
    `SELECT id FROM payment_authorizations
      WHERE status = 'scored' AND settle_failed_at IS NULL AND rail = 'exact-evm'
        AND (settle_unknown_since IS NOT NULL OR updated_at < now() - make_interval(secs => $1))
      ORDER BY updated_at
      LIMIT $2`,
    [staleAfterSeconds, limit],
  )) as Array<{ id: string }>;
  return rows.map((r) => r.id);
}

/** A ledger row as published to the live feed. */
export interface LedgerEntry {
  id: string;
  product: string;
  tier: string | null;
  profile: string | null;
  score: number | null;
  passed: boolean | null;
  resultId: string;
  network: string;
  asset: string;
  amount: string;
  transaction: string;
  payer: string;
  settledAt: Date;
}

/** A settlement as recorded: its ledger entry, and whether the payer had referral rewards due then. */
export interface RecordedSettlement extends LedgerEntry {
  rewardsDue: boolean;
}

/**
 * Marks a scored authorization settled and writes its ledger row (and any calibration share),
 * binding the purchase's referral code when it qualifies (section 8: a new wallet's first
 * purchase, not its own code, no cycle) and accruing the referrer's reward credits
 * (`floor(spend * reward_pct / 100 / basic price)` of the cumulative spend per currency, so a
 * remainder carries over). One statement, its own transaction: the `record_settlement` function,
 * given the reward terms from the product catalog. Idempotent: a second call for a settled
 * authorization writes nothing, so credits are neither lost nor doubled when settlement is retried.
 * @param ds - DataSource
 * @param id - the authorization
 * @param transaction - the settlement's transaction hash (or the legacy transfer's signature)
 * @returns the new ledger entry (and whether the payer has rewards due), or undefined when it was settled before
 */
export async function recordSettlement(ds: DataSource, id: string, transaction: string): Promise<RecordedSettlement | undefined> {
  const basic = PRODUCTS.simulate.tiers.basic.price;
  const rows = await runHotStatement<RecordedSettlement>(ds, RECORD_SETTLEMENT, [
    id,
    transaction,
    PRODUCT_TERMS.referralRewardPct,
    basic.usdcUnits,
    basic.lamports,
    SOL_ASSET,
  ]);
  return rows[0];
}
