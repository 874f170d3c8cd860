import { PRICES, PRODUCT_TERMS, type Price } from '../../shared/pricing';
import type { Charge } from '../payments/charge';

/** The plans a wallet can buy at POST /api/bundle. */
export type PurchasePlan = 'bundle' | 'fleet';

/** The purchasable plans, in manifest order. */
export const PURCHASE_PLANS: readonly PurchasePlan[] = ['bundle', 'fleet'];

/** What a plan gives and costs. */
export interface PlanTerms {
  credits: number;
  price: Price;
  description: string;
}

/**
 * The terms of a plan. `bundle`: 1000 basic credits (15 percent off list). `fleet`: 1176 credits
 * for 49.98 USDC, the terms of the fleet card pack, under one token the paying wallet's agents share,
 * at the bundle's per-credit rate.
 * @param plan - bundle or fleet
 * @returns credits, price, description
 */
export function planTerms(plan: PurchasePlan): PlanTerms {
  return plan === 'fleet'
    ? {
        credits: PRODUCT_TERMS.fleetCredits,
        price: PRICES.fleet,
        description: `Fleet bundle: ${PRODUCT_TERMS.fleetCredits} basic-score credits under one token for your agents (the fleet pack's terms, 15 percent off list).`,
      }
    : {
        credits: PRODUCT_TERMS.bundleCredits,
        price: PRICES.bundle,
        description: `Prepaid bundle: ${PRODUCT_TERMS.bundleCredits} basic-score credits (${PRODUCT_TERMS.bundleDiscountPct} percent off list).`,
      };
}

/**
 * The charge of a bundle purchase: ledger product `bundle`, tier = the plan.
 * @param plan - bundle or fleet
 * @returns the charge
 */
export function bundleCharge(plan: PurchasePlan): Charge {
  const terms = planTerms(plan);
  return { product: 'bundle', tier: plan, price: terms.price, description: terms.description };
}
