import type { DataSource } from 'typeorm';
import type { PriceSettings } from '../../shared/operators/network-config';
import { PRODUCT_TERMS, type Product } from '../../shared/products';
import { walletKey } from './bundle-credit/wallet-key';
import { chargeFor, type Charge } from './charge';

/**
 * How many settled paid sessions a wallet has on the ledger (bundle purchases are not sessions).
 * @param ds - DataSource
 * @param wallet - a `wallet_address` as sent
 * @returns the count
 */
export async function settledSessionsOf(ds: DataSource, wallet: string): Promise<number> {
  const rows = (await ds.query(`SELECT count(*)::int AS n FROM ledger_sessions WHERE payer = $1 AND product <> 'bundle'`, [walletKey(wallet)])) as Array<{ n: number }>;
  return rows[0]?.n ?? 0;
}

// Integer minor units, rounded down in the payer's favour.
const discounted = (units: number, pct: number) => Math.floor((units * (100 - pct)) / 100);

/**
 * The live quote of a product tier for a wallet: the catalog price, less the legacy loyalty
 * discount (section 8: 10 percent from 10 settled paid sessions, never on /api/simulate) when the
 * product takes it and the wallet qualifies. A payment must match this quote exactly.
 * @param ds - DataSource
 * @param product - the catalog entry
 * @param tier - tier key (the default tier when omitted)
 * @param wallet - the request's `wallet_address`; without one, the base quote
 * @param network - the runtime network configuration (`deps.network.current()`; see `chargeFor`)
 * @param adjust - a per-request change of the base charge made before the discount (the duel's
 *   failure escalation); the discount's list price is then the adjusted price
 * @returns the charge, with `discount` when one applied
 */
export async function quoteFor(
  ds: DataSource,
  product: Product,
  tier: string | undefined,
  wallet: string | undefined,
  network?: PriceSettings,
  adjust: (base: Charge) => Charge = (base) => base,
): Promise<Charge> {
  const base = adjust(chargeFor(product, tier, network));
  if (!product.loyaltyDiscount || wallet === undefined) return base;
  const sessions = await settledSessionsOf(ds, wallet);
  if (sessions < PRODUCT_TERMS.loyaltyThresholdSessions) return base;
  const pct = PRODUCT_TERMS.loyaltyDiscountPct;
  return {
    ...base,
    price: { usdcUnits: discounted(base.price.usdcUnits, pct), lamports: discounted(base.price.lamports, pct) },
    description: `${base.description} Loyalty discount: ${pct} percent.`,
    discount: {
      kind: 'loyalty',
      pct,
      list_usdc_units: base.price.usdcUnits,
      list_lamports: base.price.lamports,
      settled_sessions: sessions,
      threshold_sessions: PRODUCT_TERMS.loyaltyThresholdSessions,
    },
  };
}
