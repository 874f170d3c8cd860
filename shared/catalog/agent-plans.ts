import type { Price, Product, ProductTier } from '../products';

/** A plan an agent can buy for a verified install: embedded-check credits for a period. */
export interface AgentPlan {
  readonly id: string;
  readonly name: string;
  /** Basic credits (one per accepted embedded check) granted on the install's plan bundle. */
  readonly credits: number;
  /** The period a purchase or a renewal covers. */
  readonly periodDays: number;
  readonly price: Price;
  /** Order of size: an upgrade goes to a plan of higher rank. */
  readonly rank: number;
}

// Priced at the prepaid bundle's per-credit rate (42,500 USDC units, 229,500 lamports per credit).
const PER_CREDIT = { usdcUnits: 42_500, lamports: 229_500 };

function plan(id: string, name: string, credits: number, rank: number): AgentPlan {
  return Object.freeze({ id, name, credits, periodDays: 30, rank, price: { usdcUnits: credits * PER_CREDIT.usdcUnits, lamports: credits * PER_CREDIT.lamports } });
}

/** The plans, smallest first. */
export const AGENT_PLANS: readonly AgentPlan[] = Object.freeze([plan('embed-starter', 'Embed starter', 500, 1), plan('embed-growth', 'Embed growth', 2000, 2)]);

/** How long a quote can be paid, from its creation. */
export const QUOTE_TTL_SECONDS = 900;

/**
 * A plan by id.
 * @param id - plan id
 * @returns the plan, or undefined
 */
export function agentPlan(id: string): AgentPlan | undefined {
  return AGENT_PLANS.find((p) => p.id === id);
}

/**
 * The catalog entry the payment pipeline charges plans under (ledger product `catalog-plan`, one
 * tier per plan). It sits beside the other products rather than in `PRODUCTS`: a plan is bought
 * through a quote (`POST /api/catalog/agent/payments/{quote_id}`), never by a body posted to one
 * product path, so it is not an MCP tool; the pricing manifest lists its steps and plans under
 * `manifestKey`.
 */
export const AGENT_PLAN_PRODUCT: Product = Object.freeze({
  id: 'catalog-plan',
  kind: 'purchase',
  label: 'Catalog plan',
  method: 'POST',
  path: '/api/catalog/agent/payments/{quote_id}',
  manifestKey: 'catalog_agent_plans',
  defaultTier: AGENT_PLANS[0]!.id,
  tiers: Object.fromEntries(
    AGENT_PLANS.map((p): [string, ProductTier] => [
      p.id,
      { price: p.price, description: `${p.name}: ${p.credits} embedded-check credits for ${p.periodDays} days on a verified install.` },
    ]),
  ),
  idempotencyKey: false,
  loyaltyDiscount: false,
  terms: { quote_ttl_seconds: QUOTE_TTL_SECONDS },
});

/** What one quote sells. */
export interface QuoteTerms {
  price: Price;
  credits: number;
  /** Days added to the install's period (0 for an upgrade, which keeps the period's end). */
  periodDays: number;
}

/**
 * The terms of a quote, from the live catalog: a new plan or a renewal is the plan's price, credits
 * and period; an upgrade is the difference in price and credits between the two plans, for the
 * rest of the current period.
 * @param kind - new, renewal or upgrade
 * @param target - the plan bought (for a renewal, the current plan)
 * @param from - the current plan (an upgrade only)
 * @returns the terms
 */
export function quoteTerms(kind: 'new' | 'renewal' | 'upgrade', target: AgentPlan, from?: AgentPlan): QuoteTerms {
  if (kind === 'upgrade') {
    if (!from) throw new Error('an upgrade needs the current plan');
    return {
      price: { usdcUnits: target.price.usdcUnits - from.price.usdcUnits, lamports: target.price.lamports - from.price.lamports },
      credits: target.credits - from.credits,
      periodDays: 0,
    };
  }
  return { price: target.price, credits: target.credits, periodDays: target.periodDays };
}
