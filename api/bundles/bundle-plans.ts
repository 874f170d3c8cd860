import { PRODUCT_TERMS, PRODUCTS, tierOf, type Price } from '../../shared/products';
import { chargeFor, type Charge } from '../payments/charge';

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
  const tier = tierOf(PRODUCTS.bundle, plan);
  return { credits: plan === 'fleet' ? PRODUCT_TERMS.fleetCredits : PRODUCT_TERMS.bundleCredits, price: tier.price, description: tier.description };
}

/**
 * The charge of a bundle purchase: ledger product `bundle`, tier = the plan.
 * @param plan - bundle or fleet
 * @returns the charge
 */
export function bundleCharge(plan: PurchasePlan): Charge {
  return chargeFor(PRODUCTS.bundle, plan);
}
