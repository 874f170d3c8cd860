import type { DataSource } from 'typeorm';
import { PRODUCTS, tierOf, type Price, type Product } from '../products';

/**
 * The runtime network configuration (interface description section 4.6): what an admin may change
 * while the service runs, without a deploy or a restart.
 */
export interface NetworkConfig {
  /** The base simulation fee: the legacy SOL price of a basic `/api/simulate` session, in lamports. */
  readonly simulateBaseLamports: number;
  /** Consecutive failed sessions after which a wallet is suspended (the duel's failure escalation). */
  readonly failureSuspensionCap: number;
  /** When it last changed (null: never changed, the defaults apply). */
  readonly updatedAt: Date | null;
  /** The admin credential that changed it last. */
  readonly updatedBy: string | null;
}

/** The two settings a change may carry. */
export type NetworkConfigPatch = Partial<Pick<NetworkConfig, 'simulateBaseLamports' | 'failureSuspensionCap'>>;

/** Inclusive bounds of each setting; a change outside them is a 422. */
export const NETWORK_CONFIG_BOUNDS = Object.freeze({
  // From 0.000001 SOL up to 1 SOL for one basic session.
  simulateBaseLamports: { minimum: 1_000, maximum: 1_000_000_000 },
  failureSuspensionCap: { minimum: 1, maximum: 100 },
});

/** The configuration before any change: the catalog's published base quote, and a cap of 3. */
export const DEFAULT_NETWORK_CONFIG: NetworkConfig = Object.freeze({
  simulateBaseLamports: PRODUCTS.simulate.tiers.basic.price.lamports,
  failureSuspensionCap: 3,
  updatedAt: null,
  updatedBy: null,
});

interface Row {
  simulate_base_lamports: number;
  failure_suspension_cap: number;
  updated_at: Date;
  updated_by: string | null;
}

const fromRow = (r: Row | undefined): NetworkConfig =>
  r
    ? { simulateBaseLamports: r.simulate_base_lamports, failureSuspensionCap: r.failure_suspension_cap, updatedAt: r.updated_at, updatedBy: r.updated_by }
    : DEFAULT_NETWORK_CONFIG;

/**
 * The stored configuration, or the defaults while it was never changed.
 * @param ds - DataSource
 * @returns the configuration
 */
export async function readNetworkConfig(ds: DataSource): Promise<NetworkConfig> {
  const rows = (await ds.query(`SELECT simulate_base_lamports, failure_suspension_cap, updated_at, updated_by FROM network_config`)) as Row[];
  return fromRow(rows[0]);
}

/** The values an audit row keeps, in the API's snake_case. */
export function auditValues(c: NetworkConfig) {
  return { simulate_base_lamports: c.simulateBaseLamports, failure_suspension_cap: c.failureSuspensionCap };
}

/**
 * Applies a change and writes its audit row, in one transaction: the row is locked, so two admins
 * changing it at once are serialised and each audit row's old values are what the change replaced.
 * @param ds - DataSource
 * @param patch - the settings to change (already within {@link NETWORK_CONFIG_BOUNDS})
 * @param credentialId - the admin credential making the change
 * @returns the configuration before and after, and the audit row's id
 */
export async function changeNetworkConfig(
  ds: DataSource,
  patch: NetworkConfigPatch,
  credentialId: string,
): Promise<{ before: NetworkConfig; after: NetworkConfig; auditId: string }> {
  return ds.transaction(async (em) => {
    const d = DEFAULT_NETWORK_CONFIG;
    await em.query(`INSERT INTO network_config (simulate_base_lamports, failure_suspension_cap) VALUES ($1, $2) ON CONFLICT (singleton) DO NOTHING`, [
      d.simulateBaseLamports,
      d.failureSuspensionCap,
    ]);
    const locked = (await em.query(`SELECT simulate_base_lamports, failure_suspension_cap, updated_at, updated_by FROM network_config FOR UPDATE`)) as Row[];
    const before = fromRow(locked[0]);
    const [updated] = (await em.query(
      `UPDATE network_config SET simulate_base_lamports = $1, failure_suspension_cap = $2, updated_at = now(), updated_by = $3
       RETURNING simulate_base_lamports, failure_suspension_cap, updated_at, updated_by`,
      [patch.simulateBaseLamports ?? before.simulateBaseLamports, patch.failureSuspensionCap ?? before.failureSuspensionCap, credentialId],
    )) as [Row[], number];
    const after = fromRow(updated[0]);
    const audit = (await em.query(`INSERT INTO network_config_changes (credential_id, old_values, new_values) VALUES ($1, $2, $3) RETURNING id`, [
      credentialId,
      JSON.stringify(auditValues(before)),
      JSON.stringify(auditValues(after)),
    ])) as Array<{ id: string }>;
    return { before, after, auditId: audit[0].id };
  });
}

/**
 * The runtime settings a live price reads. Every function that quotes takes this, never a named
 * setting, so a price an admin can change besides the base simulation fee is added here alone.
 */
export type PriceSettings = Pick<NetworkConfig, 'simulateBaseLamports'>;

/**
 * A key that changes exactly when some live price may: documents built from prices are cached by it.
 * @param settings - the runtime settings
 * @returns the key
 */
export function priceSettingsKey(settings: PriceSettings): string {
  return String(settings.simulateBaseLamports);
}

/**
 * The live price of a product tier: the catalog's, except where the runtime configuration sets it
 * (today the base simulation fee: the lamports of a basic `/api/simulate` session; its USDC price
 * stays the catalog's).
 * @param product - the catalog entry
 * @param tier - tier key
 * @param network - the runtime configuration
 * @returns the price to quote
 */
export function livePrice(product: Product, tier: string, network: PriceSettings): Price {
  const price = tierOf(product, tier).price;
  if (product.id === PRODUCTS.simulate.id && tier === PRODUCTS.simulate.defaultTier) return { ...price, lamports: network.simulateBaseLamports };
  return price;
}
