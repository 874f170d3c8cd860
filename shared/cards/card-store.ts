import type { DataSource, EntityManager } from 'typeorm';
import type { CardPack } from '../products';

type Queryable = Pick<DataSource | EntityManager, 'query'>;

/** Where a card purchase stands: pending until its payment is granted (paid) or refused (failed). */
export type CardPurchaseStatus = 'pending' | 'paid' | 'failed';

/** A card purchase: one checkout session for one pack on one bundle. */
export interface CardPurchaseRow {
  id: string;
  bundleId: string;
  pack: string;
  amountCents: number;
  currency: string;
  credits: number;
  autoRefill: boolean;
  checkoutSessionId: string | null;
  status: CardPurchaseStatus;
  createdAt: Date;
  settledAt: Date | null;
}

interface RawPurchase {
  id: string;
  bundle_id: string;
  pack: string;
  amount_cents: number;
  currency: string;
  credits: number;
  auto_refill: boolean;
  checkout_session_id: string | null;
  status: CardPurchaseStatus;
  created_at: Date;
  settled_at: Date | null;
}

const PURCHASE_COLUMNS = 'id, bundle_id, pack, amount_cents, currency, credits, auto_refill, checkout_session_id, status, created_at, settled_at';

function toPurchase(r: RawPurchase): CardPurchaseRow {
  return {
    id: r.id,
    bundleId: r.bundle_id,
    pack: r.pack,
    amountCents: r.amount_cents,
    currency: r.currency,
    credits: r.credits,
    autoRefill: r.auto_refill,
    checkoutSessionId: r.checkout_session_id,
    status: r.status,
    createdAt: r.created_at,
    settledAt: r.settled_at,
  };
}

/**
 * Creates an empty card bundle (no wallet, zero credits) under a token hash: the token is shown
 * once, in the checkout's answer.
 * @param db - DataSource or transaction
 * @param tokenHash - SHA-256 (hex) of the new bundle token
 * @returns the bundle id
 */
export async function createCardBundle(db: Queryable, tokenHash: string): Promise<string> {
  const rows = (await db.query(
    `INSERT INTO bundles (token_hash, wallet, plan, source, credits_total, credits_remaining, authorization_id, token_issued_at)
     VALUES ($1, NULL, 'card', 'card', 0, 0, NULL, now()) RETURNING id`,
    [tokenHash],
  )) as Array<{ id: string }>;
  return rows[0].id;
}

/**
 * Records a pending purchase of a pack for a bundle, priced from the catalog.
 * @param db - DataSource or transaction
 * @param input - bundle, pack (from the catalog), auto-refill
 * @returns the purchase
 */
export async function createCardPurchase(
  db: Queryable,
  input: { bundleId: string; pack: Pick<CardPack, 'id' | 'amountCents' | 'currency' | 'credits'>; autoRefill: boolean },
): Promise<CardPurchaseRow> {
  const rows = (await db.query(
    `INSERT INTO card_purchases (bundle_id, pack, amount_cents, currency, credits, auto_refill)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${PURCHASE_COLUMNS}`,
    [input.bundleId, input.pack.id, input.pack.amountCents, input.pack.currency, input.pack.credits, input.autoRefill],
  )) as RawPurchase[];
  return toPurchase(rows[0]);
}

/**
 * Binds a purchase to the checkout session the processor created for it.
 * @param db - DataSource
 * @param purchaseId - the purchase
 * @param sessionId - the checkout session id (`cs_...`)
 */
export async function attachCheckoutSession(db: Queryable, purchaseId: string, sessionId: string): Promise<void> {
  await db.query(`UPDATE card_purchases SET checkout_session_id = $2 WHERE id = $1 AND checkout_session_id IS NULL`, [purchaseId, sessionId]);
}

/**
 * Removes a purchase whose checkout session could not be created, and its bundle when the purchase
 * made it (a new bundle holds nothing else yet).
 * @param db - DataSource
 * @param purchaseId - the purchase
 * @param newBundleId - the bundle the checkout created, if it did
 */
export async function discardCardPurchase(db: DataSource, purchaseId: string, newBundleId: string | undefined): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`DELETE FROM card_purchases WHERE id = $1 AND status = 'pending'`, [purchaseId]);
    if (newBundleId) await tx.query(`DELETE FROM bundles WHERE id = $1 AND source = 'card' AND credits_total = 0`, [newBundleId]);
  });
}

/**
 * A purchase by id.
 * @param db - DataSource or transaction
 * @param id - purchase id
 * @returns the purchase, or undefined
 */
export async function getCardPurchase(db: Queryable, id: string): Promise<CardPurchaseRow | undefined> {
  const rows = (await db.query(`SELECT ${PURCHASE_COLUMNS} FROM card_purchases WHERE id = $1`, [id])) as RawPurchase[];
  return rows[0] ? toPurchase(rows[0]) : undefined;
}

/**
 * Marks a pending purchase failed (its asynchronous payment failed, or its session expired unpaid).
 * @param db - DataSource
 * @param id - purchase id
 * @returns true when it was pending
 */
export async function failCardPurchase(db: Queryable, id: string): Promise<boolean> {
  const rows = (await db.query(`UPDATE card_purchases SET status = 'failed', settled_at = now() WHERE id = $1 AND status = 'pending' RETURNING id`, [id])) as [
    unknown[],
    number,
  ];
  return rows[0].length > 0;
}

/** What the grant of a processor object did. */
export type GrantOutcome = 'granted' | 'already_granted';

/** A payment to grant: the processor object it pays for, and the amount it carried. */
export interface CardPayment {
  /** The processor object paid for: the checkout session (`cs_...`) or the renewal's payment intent (`pi_...`). */
  objectId: string;
  amountCents: number;
  currency: string;
  /** The event that reported it, when one did. */
  eventId: string | null;
}

// Adds credits to a bundle and records the grant, in the caller's transaction. The grant row is
// unique on the processor object, so a second grant of the same object inserts nothing and adds
// nothing, whichever delivery, reconciler run or renewal answer reaches here second.
async function insertGrant(
  tx: EntityManager,
  grant: CardPayment & { kind: 'checkout' | 'renewal'; bundleId: string; purchaseId: string | null; renewalId: string | null; pack: string; credits: number },
): Promise<GrantOutcome> {
  const inserted = (await tx.query(
    `INSERT INTO card_grants (stripe_object_id, kind, bundle_id, purchase_id, renewal_id, pack, credits, amount_cents, currency, event_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT ON CONSTRAINT uq_card_grants_stripe_object_id DO NOTHING
     RETURNING id`,
    [grant.objectId, grant.kind, grant.bundleId, grant.purchaseId, grant.renewalId, grant.pack, grant.credits, grant.amountCents, grant.currency, grant.eventId],
  )) as Array<{ id: string }>;
  if (!inserted[0]) return 'already_granted';
  await tx.query(
    `UPDATE bundles SET credits_total = credits_total + $2, credits_remaining = credits_remaining + $2, updated_at = now() WHERE id = $1`,
    [grant.bundleId, grant.credits],
  );
  return 'granted';
}

/**
 * Grants a paid checkout's credits, once per checkout session: the grant row, the credits and the
 * purchase's `paid` state in one transaction. The caller has checked the amount and currency.
 * @param db - DataSource
 * @param purchase - the purchase the session pays for
 * @param payment - the session and what it carried
 * @param renewal - for an auto-refill purchase, the saved card to charge monthly from now on
 * @returns granted, or already_granted
 */
export async function grantCheckout(
  db: DataSource,
  purchase: CardPurchaseRow,
  payment: CardPayment,
  renewal?: { customerId: string; paymentMethodId: string },
): Promise<GrantOutcome> {
  return db.transaction(async (tx) => {
    const outcome = await insertGrant(tx, {
      ...payment,
      kind: 'checkout',
      bundleId: purchase.bundleId,
      purchaseId: purchase.id,
      renewalId: null,
      pack: purchase.pack,
      credits: purchase.credits,
    });
    if (outcome === 'granted') {
      // A purchase marked failed by an earlier, out-of-order event is paid after all.
      await tx.query(
        `UPDATE card_purchases SET status = 'paid', settled_at = now(), checkout_session_id = COALESCE(checkout_session_id, $2) WHERE id = $1`,
        [purchase.id, payment.objectId],
      );
      if (renewal) {
        await tx.query(
          `INSERT INTO card_renewals (bundle_id, purchase_id, pack, amount_cents, currency, credits, customer_id, payment_method_id, next_charge_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + interval '1 month')
           ON CONFLICT ON CONSTRAINT uq_card_renewals_purchase_id DO NOTHING`,
          [purchase.bundleId, purchase.id, purchase.pack, purchase.amountCents, purchase.currency, purchase.credits, renewal.customerId, renewal.paymentMethodId],
        );
      }
    }
    return outcome;
  });
}

/** A renewal plan: one pack charged monthly to a saved card for one bundle. */
export interface CardRenewalRow {
  id: string;
  bundleId: string;
  purchaseId: string;
  pack: string;
  amountCents: number;
  currency: string;
  credits: number;
  customerId: string;
  paymentMethodId: string;
  status: 'active' | 'cancelled';
  nextPeriod: number;
  nextChargeAt: Date;
  createdAt: Date;
  cancelledAt: Date | null;
}

interface RawRenewal {
  id: string;
  bundle_id: string;
  purchase_id: string;
  pack: string;
  amount_cents: number;
  currency: string;
  credits: number;
  customer_id: string;
  payment_method_id: string;
  status: 'active' | 'cancelled';
  next_period: number;
  next_charge_at: Date;
  created_at: Date;
  cancelled_at: Date | null;
}

const RENEWAL_COLUMNS =
  'id, bundle_id, purchase_id, pack, amount_cents, currency, credits, customer_id, payment_method_id, status, next_period, next_charge_at, created_at, cancelled_at';

function toRenewal(r: RawRenewal): CardRenewalRow {
  return {
    id: r.id,
    bundleId: r.bundle_id,
    purchaseId: r.purchase_id,
    pack: r.pack,
    amountCents: r.amount_cents,
    currency: r.currency,
    credits: r.credits,
    customerId: r.customer_id,
    paymentMethodId: r.payment_method_id,
    status: r.status,
    nextPeriod: r.next_period,
    nextChargeAt: r.next_charge_at,
    createdAt: r.created_at,
    cancelledAt: r.cancelled_at,
  };
}

/**
 * A renewal plan by id.
 * @param db - DataSource or transaction
 * @param id - renewal id
 * @returns the renewal, or undefined
 */
export async function getCardRenewal(db: Queryable, id: string): Promise<CardRenewalRow | undefined> {
  const rows = (await db.query(`SELECT ${RENEWAL_COLUMNS} FROM card_renewals WHERE id = $1`, [id])) as RawRenewal[];
  return rows[0] ? toRenewal(rows[0]) : undefined;
}

/** One period's charge of a renewal, claimed before the processor is called. */
export interface RenewalCharge {
  renewal: CardRenewalRow;
  period: number;
  /** `card-renewal-<renewal id>-<period>`: the processor answers a repeat of it with the first outcome. */
  idempotencyKey: string;
}

/**
 * The idempotency key of one renewal period's charge.
 * @param renewalId - renewal id
 * @param period - period number (1 = the first renewal after the purchase)
 * @returns the key
 */
export function renewalIdempotencyKey(renewalId: string, period: number): string {
  return `card-renewal-${renewalId}-${period}`;
}

/**
 * Claims the next due period of one active renewal, oldest first: inserts its charge row (unique per
 * renewal and period: a period is attempted once, and a failed one is never claimed again) and moves
 * the renewal to its next period, in one transaction. Periods missed while no worker ran are
 * skipped, not charged in a burst.
 * @param db - DataSource
 * @returns the claimed charge, or undefined when nothing is due
 */
export async function claimDueRenewal(db: DataSource): Promise<RenewalCharge | undefined> {
  return db.transaction(async (tx) => {
    const due = (await tx.query(
      `SELECT ${RENEWAL_COLUMNS} FROM card_renewals
        WHERE status = 'active' AND next_charge_at <= now()
        ORDER BY next_charge_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
    )) as RawRenewal[];
    if (!due[0]) return undefined;
    const renewal = toRenewal(due[0]);
    const period = renewal.nextPeriod;
    const key = renewalIdempotencyKey(renewal.id, period);
    await tx.query(
      `INSERT INTO card_renewal_charges (renewal_id, period, idempotency_key) VALUES ($1, $2, $3)
       ON CONFLICT ON CONSTRAINT uq_card_renewal_charges_period DO NOTHING`,
      [renewal.id, period, key],
    );
    await tx.query(
      `UPDATE card_renewals
          SET next_period = next_period + 1,
              next_charge_at = CASE WHEN next_charge_at + interval '1 month' > now() THEN next_charge_at + interval '1 month' ELSE now() + interval '1 month' END
        WHERE id = $1`,
      [renewal.id],
    );
    return { renewal, period, idempotencyKey: key };
  });
}

/**
 * Charges whose processor call never reported back (the worker died or the call timed out) for
 * longer than `olderThanSeconds`: resumed with the same idempotency key, so the processor answers
 * with the one outcome of that period's single attempt.
 * @param db - DataSource
 * @param olderThanSeconds - age of an unfinished charge before it is resumed
 * @returns the charges to resume
 */
export async function findUnfinishedRenewalCharges(db: Queryable, olderThanSeconds: number): Promise<RenewalCharge[]> {
  const rows = (await db.query(
    `SELECT c.period, c.idempotency_key, ${RENEWAL_COLUMNS.split(', ').map((c) => `r.${c}`).join(', ')}
       FROM card_renewal_charges c JOIN card_renewals r ON r.id = c.renewal_id
      WHERE c.status = 'attempting' AND c.attempted_at < now() - make_interval(secs => $1)
      ORDER BY c.attempted_at LIMIT 100`,
    [olderThanSeconds],
  )) as Array<RawRenewal & { period: number; idempotency_key: string }>;
  return rows.map((r) => ({ renewal: toRenewal(r), period: r.period, idempotencyKey: r.idempotency_key }));
}

/**
 * Records a renewal charge the processor declined: nothing is granted and the period is never
 * attempted again.
 * @param db - DataSource
 * @param renewalId - renewal id
 * @param period - period number
 * @param failure - the processor's decline code and the payment intent, when it made one
 */
export async function failRenewalCharge(db: Queryable, renewalId: string, period: number, failure: { code: string; paymentIntentId: string | null }): Promise<void> {
  await db.query(
    `UPDATE card_renewal_charges SET status = 'failed', failure_code = $3, payment_intent_id = COALESCE(payment_intent_id, $4), finished_at = now()
      WHERE renewal_id = $1 AND period = $2 AND status = 'attempting'`,
    [renewalId, period, failure.code.slice(0, 100), failure.paymentIntentId],
  );
}

/**
 * Grants one settled renewal period, once per payment intent, and marks its charge succeeded. The
 * caller has checked amount and currency. Credits are granted even when the renewal was cancelled
 * after the charge was made: a settled payment's credits always remain.
 * @param db - DataSource
 * @param renewal - the renewal
 * @param period - the period the payment intent paid for
 * @param payment - the payment intent and what it carried
 * @returns granted, or already_granted
 */
export async function grantRenewal(db: DataSource, renewal: CardRenewalRow, period: number, payment: CardPayment): Promise<GrantOutcome> {
  return db.transaction(async (tx) => {
    const outcome = await insertGrant(tx, {
      ...payment,
      kind: 'renewal',
      bundleId: renewal.bundleId,
      purchaseId: null,
      renewalId: renewal.id,
      pack: renewal.pack,
      credits: renewal.credits,
    });
    await tx.query(
      `UPDATE card_renewal_charges SET status = 'succeeded', payment_intent_id = $3, finished_at = now()
        WHERE renewal_id = $1 AND period = $2 AND status <> 'succeeded'`,
      [renewal.id, period, payment.objectId],
    );
    return outcome;
  });
}

/**
 * Cancels every active renewal of a bundle: no further charges; credits already granted remain.
 * @param db - DataSource
 * @param bundleId - the bundle
 * @returns the ids of the renewals cancelled now
 */
export async function cancelRenewals(db: Queryable, bundleId: string): Promise<string[]> {
  const rows = (await db.query(
    `UPDATE card_renewals SET status = 'cancelled', cancelled_at = now() WHERE bundle_id = $1 AND status = 'active' RETURNING id`,
    [bundleId],
  )) as [Array<{ id: string }>, number];
  return rows[0].map((r) => r.id);
}

/** The card side of a bundle, as its balance shows it. */
export interface BundleCardState {
  /** Purchases whose payment has not settled yet. */
  pending: CardPurchaseRow[];
  renewals: Array<CardRenewalRow & { lastCharge: { period: number; status: string; at: Date } | null }>;
}

/**
 * The pending purchases and renewals of a bundle.
 * @param db - DataSource
 * @param bundleId - the bundle
 * @returns its card state
 */
export async function bundleCardState(db: Queryable, bundleId: string): Promise<BundleCardState> {
  const pending = (await db.query(
    `SELECT ${PURCHASE_COLUMNS} FROM card_purchases WHERE bundle_id = $1 AND status = 'pending' AND checkout_session_id IS NOT NULL ORDER BY created_at`,
    [bundleId],
  )) as RawPurchase[];
  const renewals = (await db.query(
    `SELECT ${RENEWAL_COLUMNS.split(', ').map((c) => `r.${c}`).join(', ')}, c.period AS last_period, c.status AS last_status, COALESCE(c.finished_at, c.attempted_at) AS last_at
       FROM card_renewals r
       LEFT JOIN LATERAL (SELECT period, status, finished_at, attempted_at FROM card_renewal_charges WHERE renewal_id = r.id ORDER BY period DESC LIMIT 1) c ON true
      WHERE r.bundle_id = $1 ORDER BY r.created_at`,
    [bundleId],
  )) as Array<RawRenewal & { last_period: number | null; last_status: string | null; last_at: Date | null }>;
  return {
    pending: pending.map(toPurchase),
    renewals: renewals.map((r) => ({
      ...toRenewal(r),
      lastCharge: r.last_period === null ? null : { period: r.last_period, status: r.last_status as string, at: r.last_at as Date },
    })),
  };
}

/** How an event was received. */
export type EventSource = 'webhook' | 'reconciler';

/**
 * Stores an event before it is applied (at least once: a crash after this leaves it unprocessed,
 * and the next delivery or reconciler run applies it).
 * @param db - DataSource
 * @param event - id, type, the object it is about
 * @param via - webhook or reconciler
 * @returns whether it was already processed
 */
export async function storeCardEvent(db: Queryable, event: { id: string; type: string; objectId: string | null }, via: EventSource): Promise<{ processed: boolean }> {
  await db.query(
    `INSERT INTO card_events (id, type, object_id, received_via) VALUES ($1, $2, $3, $4) ON CONFLICT ON CONSTRAINT pk_card_events DO NOTHING`,
    [event.id, event.type, event.objectId, via],
  );
  const rows = (await db.query(`SELECT processed_at FROM card_events WHERE id = $1`, [event.id])) as Array<{ processed_at: Date | null }>;
  return { processed: rows[0]?.processed_at != null };
}

/**
 * Marks a stored event applied, with what applying it did.
 * @param db - DataSource
 * @param id - event id
 * @param outcome - e.g. granted, already_granted, amount_mismatch, ignored
 */
export async function markCardEventProcessed(db: Queryable, id: string, outcome: string): Promise<void> {
  await db.query(`UPDATE card_events SET processed_at = now(), outcome = $2 WHERE id = $1 AND processed_at IS NULL`, [id, outcome]);
}

/**
 * Whether an event was stored and applied already (the reconciler skips those).
 * @param db - DataSource
 * @param id - event id
 * @returns true when processed
 */
export async function isCardEventProcessed(db: Queryable, id: string): Promise<boolean> {
  const rows = (await db.query(`SELECT 1 FROM card_events WHERE id = $1 AND processed_at IS NOT NULL`, [id])) as unknown[];
  return rows.length > 0;
}

/**
 * A purchase by its checkout session (the return page reads it; the session id is no secret).
 * @param db - DataSource
 * @param sessionId - `cs_...`
 * @returns the purchase, or undefined
 */
export async function getCardPurchaseBySession(db: Queryable, sessionId: string): Promise<CardPurchaseRow | undefined> {
  const rows = (await db.query(`SELECT ${PURCHASE_COLUMNS} FROM card_purchases WHERE checkout_session_id = $1`, [sessionId])) as RawPurchase[];
  return rows[0] ? toPurchase(rows[0]) : undefined;
}
