import type { Price } from '../../shared/pricing';

/** What a paid request costs and how the ledger names it. */
export interface Charge {
  /** Ledger product name, e.g. `simulate`. */
  product: string;
  /** Tier within the product (basic, deep), or null. */
  tier: string | null;
  price: Price;
  /** One line for the challenge's `resource.description`. */
  description: string;
}
