import type { DataSource, EntityManager } from 'typeorm';
import { createCardBundle, createCardPurchase, type CardPurchaseRow } from '../../shared/cards/card-store';
import type { CompanyPlan } from '../../shared/products';
import { tokenHashMatches } from '../http/program-token';

type Queryable = Pick<DataSource | EntityManager, 'query'>;

/** A company of the program, with the state of the payment that bought it. */
export interface CompanyRow {
  id: string;
  bundleId: string;
  purchaseId: string;
  plan: string;
  guideCallsTotal: number;
  guideCallsUsed: number;
  sponsorshipSlots: number;
  periodDays: number;
  termsVersion: string | null;
  termsHash: string | null;
  activatedAt: Date | null;
  periodEndsAt: Date | null;
  /** The card purchase's state: the company can be claimed only once it is `paid`. */
  paymentStatus: CardPurchaseRow['status'];
  /** Embedded-check credits on the company's bundle. */
  creditsTotal: number;
  creditsRemaining: number;
}

interface RawCompany {
  id: string;
  token_hash: string;
  bundle_id: string;
  purchase_id: string;
  plan: string;
  guide_calls_total: number;
  guide_calls_used: number;
  sponsorship_slots: number;
  period_days: number;
  terms_version: string | null;
  terms_hash: string | null;
  activated_at: Date | null;
  period_ends_at: Date | null;
  payment_status: CardPurchaseRow['status'];
  credits_total: number;
  credits_remaining: number;
}

const SELECT_COMPANY = `
  SELECT c.id, c.token_hash, c.bundle_id, c.purchase_id, c.plan, c.guide_calls_total, c.guide_calls_used, c.sponsorship_slots,
         c.period_days, c.terms_version, c.terms_hash, c.activated_at, c.period_ends_at,
         p.status AS payment_status, b.credits_total, b.credits_remaining
    FROM aei_companies c
    JOIN card_purchases p ON p.id = c.purchase_id
    JOIN bundles b ON b.id = c.bundle_id`;

function toCompany(r: RawCompany): CompanyRow {
  return {
    id: r.id,
    bundleId: r.bundle_id,
    purchaseId: r.purchase_id,
    plan: r.plan,
    guideCallsTotal: r.guide_calls_total,
    guideCallsUsed: r.guide_calls_used,
    sponsorshipSlots: r.sponsorship_slots,
    periodDays: r.period_days,
    termsVersion: r.terms_version,
    termsHash: r.terms_hash,
    activatedAt: r.activated_at,
    periodEndsAt: r.period_ends_at,
    paymentStatus: r.payment_status,
    creditsTotal: r.credits_total,
    creditsRemaining: r.credits_remaining,
  };
}

/**
 * Creates a company bought by a pending card purchase: its card bundle (zero credits until the
 * payment is granted), the purchase priced from the plan, and the company row under its token's hash.
 * @param tx - the transaction
 * @param input - the plan and the hashes of the two tokens shown once
 * @returns the company's id, its bundle and its purchase
 */
export async function createPendingCompany(
  tx: EntityManager,
  input: { plan: CompanyPlan; companyTokenHash: string; bundleTokenHash: string },
): Promise<{ companyId: string; bundleId: string; purchase: CardPurchaseRow }> {
  const bundleId = await createCardBundle(tx, input.bundleTokenHash);
  const purchase = await createCardPurchase(tx, { bundleId, pack: input.plan, autoRefill: false });
  const rows = (await tx.query(
    `INSERT INTO aei_companies (token_hash, bundle_id, purchase_id, plan, guide_calls_total, sponsorship_slots, period_days)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [input.companyTokenHash, bundleId, purchase.id, input.plan.id, input.plan.guideCalls, input.plan.sponsorshipSlots, input.plan.periodDays],
  )) as Array<{ id: string }>;
  return { companyId: rows[0].id, bundleId, purchase };
}

/**
 * The company of a presented token hash, whatever its state. The row is found by the hash's unique
 * index and its stored hash compared again in constant time.
 * @param db - DataSource
 * @param tokenHash - SHA-256 of the presented token
 * @returns the company, or undefined
 */
export async function findCompanyByTokenHash(db: Queryable, tokenHash: string): Promise<CompanyRow | undefined> {
  const rows = (await db.query(`${SELECT_COMPANY} WHERE c.token_hash = $1`, [tokenHash])) as RawCompany[];
  const row = rows[0];
  return row && tokenHashMatches(row.token_hash, tokenHash) ? toCompany(row) : undefined;
}

/**
 * Activates a paid company under the terms it accepted, once: the period starts now. A company
 * already active keeps its first activation (a repeated claim answers it unchanged).
 * @param db - DataSource
 * @param companyId - the company
 * @param terms - the accepted terms' version and content hash
 * @returns the company as it stands after the claim
 */
export async function activateCompany(db: DataSource, companyId: string, terms: { version: string; hash: string }): Promise<CompanyRow> {
  // The payment check sits in the same statement, so a claim racing a refund-like failure cannot
  // activate an unpaid purchase.
  await db.query(
    `UPDATE aei_companies c
        SET activated_at = now(), period_ends_at = now() + make_interval(days => c.period_days), terms_version = $2, terms_hash = $3
       FROM card_purchases p
      WHERE c.id = $1 AND p.id = c.purchase_id AND p.status = 'paid' AND c.activated_at IS NULL`,
    [companyId, terms.version, terms.hash],
  );
  const rows = (await db.query(`${SELECT_COMPANY} WHERE c.id = $1`, [companyId])) as RawCompany[];
  return toCompany(rows[0]);
}

/**
 * Removes a company whose checkout session could not be created, with its purchase and bundle.
 * @param db - DataSource
 * @param company - the company, its bundle and purchase
 */
export async function discardPendingCompany(db: DataSource, company: { companyId: string; bundleId: string }): Promise<void> {
  // The bundle's deletion cascades to the purchase and the company row.
  await db.query(`DELETE FROM bundles WHERE id = $1 AND source = 'card' AND credits_total = 0`, [company.bundleId]);
}
