import { priceSettingsKey } from '../../shared/operators/network-config';
import type { AgentTool } from '../http/agent-tool';
import type { AppDeps } from '../http/deps';
import { buildPricingManifest, type ServedOperations } from './pricing-manifest';

/**
 * The pricing manifest of the current runtime configuration, rebuilt only when an admin changed
 * the base simulation fee.
 * @param deps - app dependencies
 * @param served - every operation the server answers, as `METHOD /path`
 * @returns a reader of the current manifest
 */
export function pricingManifestReader(deps: AppDeps, served: ServedOperations): () => object {
  let built: { prices: string; manifest: object } | undefined;
  return () => {
    const network = deps.network.current();
    if (built?.prices !== priceSettingsKey(network)) {
      built = { prices: priceSettingsKey(network), manifest: Object.freeze(buildPricingManifest(deps.config.payments, deps.config.freeTier, served, network)) };
    }
    return built.manifest;
  };
}

/**
 * The pricing manifest as an agent tool (`GET /api/pricing`).
 * @param manifest - the reader the route uses too
 * @returns the tool
 */
export function pricingTool(manifest: () => object): AgentTool {
  return {
    name: 'pricing',
    title: 'Pricing manifest',
    description: 'Every product with its live price (USDC atomic units, 6 decimals), terms and payment methods. Same as GET /api/pricing.',
    inputSchema: { type: 'object', additionalProperties: false, properties: {} },
    readOnly: true,
    run: async () => manifest() as Record<string, unknown>,
  };
}
