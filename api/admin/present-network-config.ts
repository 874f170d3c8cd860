import type { NetworkConfig } from '../../shared/operators/network-config';
import type { NetworkConfigView } from '../../shared/operators/network-config-cache';

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

/**
 * The stored configuration beside what each running process reported it holds.
 * @param stored - the configuration in the database
 * @param views - the live processes' views
 * @returns the response body of `GET /api/admin/network-config/processes`
 */
export function presentNetworkConfigViews(stored: NetworkConfig, views: NetworkConfigView[]) {
  const storedAt = stored.updatedAt ? stored.updatedAt.toISOString() : null;
  const processes = views.map((v) => ({
    instance: v.instance,
    role: v.role,
    simulate_base_lamports: v.simulateBaseLamports,
    failure_suspension_cap: v.failureSuspensionCap,
    updated_at: v.updatedAt,
    reported_at: v.reportedAt,
    current: v.updatedAt === storedAt,
  }));
  return { network_config: presentNetworkConfig(stored), processes, all_current: processes.every((p) => p.current) };
}
