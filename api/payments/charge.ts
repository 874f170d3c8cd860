import { DEFAULT_NETWORK_CONFIG, livePrice, type PriceSettings } from '../../shared/operators/network-config';
import { ledgerTier, tierOf, type Price, type Product } from '../../shared/products';

/** What a paid request costs, how it may pay, and how the ledger names it; built from the catalog. */
export interface Charge {
  /** Ledger product name, e.g. `simulate`. */
  product: string;
  /** Tier within the product (basic, deep, a bundle plan), or null for a product sold at one price. */
  tier: string | null;
  price: Price;
  /** One line for the challenge's `resource.description`. */
  description: string;
  /** Whether the product honours Idempotency-Key. */
  idempotencyKey: boolean;
  /** A discount the live quote applied to the catalog price (`price` is then the discounted price). */
  discount?: Discount;
  /** Terms of this quote the 402 body shows beside the requirements (a duel's fee and its escalation). */
  note?: Record<string, unknown>;
}

/** A discount in a live quote, as the 402 body shows it. */
export interface Discount {
  kind: 'loyalty';
  pct: number;
  /** The catalog price before the discount. */
  list_usdc_units: number;
  list_lamports: number;
  /** Why: the wallet's settled paid sessions, and the program's threshold. */
  settled_sessions: number;
  threshold_sessions: number;
}

/**
 * The base charge of a product tier: the catalog's, with the runtime network configuration applied
 * (an admin may change the base simulation fee while the service runs; see `livePrice`). This is
 * the one place a base price is read: a route that quotes per request (a discount, a surcharge)
 * starts from this and changes the price.
 * @param product - the catalog entry
 * @param tier - tier key (the default tier when omitted)
 * @param network - the process's current runtime configuration (`deps.network.current()`); the
 *   defaults (the catalog's prices) when omitted
 * @returns the charge
 */
export function chargeFor(product: Product, tier: string = product.defaultTier, network: PriceSettings = DEFAULT_NETWORK_CONFIG): Charge {
  const found = tierOf(product, tier);
  return {
    product: product.id,
    tier: ledgerTier(tier),
    price: livePrice(product, tier, network),
    description: found.description,
    idempotencyKey: product.idempotencyKey,
  };
}
