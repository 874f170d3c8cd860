import type { DataSource, EntityManager } from 'typeorm';
import { hashBundleToken, newBundleToken } from '../../payments/bundle-credit/bundle-token';
import { getQuote, type QuoteRow } from './quote-store';

/** An install's plan: its bundle and the end of the period paid for. */
export interface InstallPlan {
  workflowId: string;
  planId: string;
  bundleId: string;
  periodEndsAt: Date;
}

/** What an activation did. */
export interface Activation {
  quote: QuoteRow;
  plan: InstallPlan;
  /** Credits this quote added; 0 when it had been activated before. */
  creditsGranted: number;
  /** Whether the install's plan bundle was made by this activation (its token not minted yet). */
  newBundle: boolean;
}

const PLAN_COLUMNS = `workflow_id AS "workflowId", plan_id AS "planId", bundle_id AS "bundleId", period_ends_at AS "periodEndsAt"`;

/**
 * An install's current plan.
 * @param db - DataSource or transaction
 * @param workflowId - the install
 * @returns the plan, or undefined when none was bought
 */
export async function getInstallPlan(db: Pick<DataSource | EntityManager, 'query'>, workflowId: string): Promise<InstallPlan | undefined> {
  const rows = (await db.query(`SELECT ${PLAN_COLUMNS} FROM catalog_install_plans WHERE workflow_id = $1`, [workflowId])) as InstallPlan[];
  return rows[0];
}

/**
 * Grants what a paid quote bought, exactly once, in one transaction: the quote row locked, the
 * install's plan bundle made (a new plan) or found, the grant row (unique per quote) inserted, the
 * credits added, the plan and its period moved, the quote marked active. A second call (a retry
 * of a failed activation, or the payment's replay) finds the quote active and grants nothing.
 * @param db - DataSource
 * @param quoteId - a quote whose payment settled (the caller checked)
 * @param payer - the paying wallet, owner of a new plan bundle
 * @returns what was done
 */
export async function activateQuote(db: DataSource, quoteId: string, payer: string): Promise<Activation> {
  return db.transaction(async (tx) => {
    const quote = (await getQuote(tx, quoteId, true)) as QuoteRow;
    const current = await getInstallPlan(tx, quote.workflowId);
    if (quote.activationStatus === 'active') return { quote, plan: current as InstallPlan, creditsGranted: 0, newBundle: false };
    let bundleId = current?.bundleId;
    let newBundle = false;
    if (!bundleId) {
      const made = (await tx.query(
        `INSERT INTO bundles (wallet, plan, source, credits_total, credits_remaining, authorization_id)
         VALUES ($1, 'catalog-plan', 'catalog-plan', $2, $2, $3) RETURNING id`,
        [payer, quote.credits, quote.authorizationId],
      )) as Array<{ id: string }>;
      bundleId = made[0]!.id;
      newBundle = true;
    } else {
      await tx.query(`UPDATE bundles SET credits_total = credits_total + $2, credits_remaining = credits_remaining + $2, updated_at = now() WHERE id = $1`, [
        bundleId,
        quote.credits,
      ]);
    }
    await tx.query(`INSERT INTO catalog_plan_grants (quote_id, bundle_id, credits) VALUES ($1, $2, $3)`, [quote.id, bundleId, quote.credits]);
    // A renewal extends from the period's end (or from now, when it lapsed); an upgrade keeps it.
    const plans = (await tx.query(
      `INSERT INTO catalog_install_plans (workflow_id, plan_id, bundle_id, period_ends_at)
       VALUES ($1, $2, $3, now() + make_interval(days => $4))
       ON CONFLICT ON CONSTRAINT pk_catalog_install_plans DO UPDATE
         SET plan_id = EXCLUDED.plan_id,
             period_ends_at = GREATEST(catalog_install_plans.period_ends_at, now()) + make_interval(days => $4),
             updated_at = now()
       RETURNING ${PLAN_COLUMNS}`,
      [quote.workflowId, quote.planId, bundleId, quote.periodDays],
    )) as InstallPlan[];
    const activated = (await tx.query(
      `UPDATE catalog_agent_quotes SET activation_status = 'active', activation_error = NULL, activated_at = now() WHERE id = $1
       RETURNING activated_at AS "activatedAt"`,
      [quote.id],
    )) as [Array<{ activatedAt: Date }>, number];
    return {
      quote: { ...quote, activationStatus: 'active', activationError: null, activatedAt: activated[0][0]!.activatedAt },
      plan: plans[0]!,
      creditsGranted: quote.credits,
      newBundle,
    };
  });
}

/**
 * Mints the plan bundle's token, once: only while it has none. Shown once, stored as a hash.
 * @param db - DataSource
 * @param bundleId - the install's plan bundle
 * @returns the token, or undefined when one was minted already
 */
export async function mintPlanToken(db: Pick<DataSource, 'query'>, bundleId: string): Promise<string | undefined> {
  const token = newBundleToken();
  const updated = (await db.query(
    `UPDATE bundles SET token_hash = $2, token_issued_at = now(), updated_at = now()
      WHERE id = $1 AND source = 'catalog-plan' AND token_hash IS NULL RETURNING id`,
    [bundleId, hashBundleToken(token)],
  )) as [unknown[], number];
  return updated[0].length === 1 ? token : undefined;
}
