import type { NetworkConfig } from '../../shared/operators/network-config';

/**
 * The runtime network configuration as the API shows it.
 * @param c - the configuration
 * @returns the response member
 */
export function presentNetworkConfig(c: NetworkConfig) {
  return {
    simulate_base_lamports: c.simulateBaseLamports,
    failure_suspension_cap: c.failureSuspensionCap,
    updated_at: c.updatedAt ? c.updatedAt.toISOString() : null,
    updated_by: c.updatedBy,
  };
}
