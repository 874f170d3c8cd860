import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import { ensureMcpRegistryKey, mcpRegistryRecord } from '../../shared/operators/mcp-registry-key';
import { priceSettingsKey } from '../../shared/operators/network-config';
import { jsonDocument, sendCacheable, type CacheableDocument } from '../http/cacheable';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import type { OperationSpec } from '../http/openapi/operation';
import { publicOrigin } from '../http/public-origin';
import { DISCOVERY_DOCUMENTS, DISCOVERY_MAX_AGE_SECONDS, type DiscoveryDocument } from './documents';
import { listEndpoints } from './endpoint-catalog';
import { DOCUMENT_PATHS } from './site';

// Built documents by origin and live fee; a handful of entries at most (one origin unless
// PUBLIC_BASE_URL is unset, one fee until an admin changes it).
const MAX_CACHED = 64;

/**
 * The discovery documents: llms.txt, the /.well-known manifests (each also under /api), the MCP
 * server card, the developer handoff and the MCP registry's domain-verification record. Each is
 * built from the operations the OpenAPI document lists, the product catalog with the live fee,
 * and config; every URL in them starts with the public origin. Cache-Control and a strong ETag on
 * each (304 on a matching If-None-Match).
 * @param deps - app dependencies
 * @param operations - every operation the service serves (`apiOperations(config)`)
 * @returns the router
 */
export function discoveryRoutes(deps: AppDeps, operations: readonly OperationSpec[]): Router<AppState> {
  const router = createRouter();
  const built = new Map<string, CacheableDocument>();

  const render = (doc: DiscoveryDocument, ctx: AppContext): CacheableDocument => {
    const origin = publicOrigin(deps.config, ctx);
    const network = deps.network.current();
    const key = `${doc.operationId}|${origin}|${priceSettingsKey(network)}`;
    let found = built.get(key);
    if (!found) {
      const value = doc.build({ origin, endpoints: listEndpoints(operations, network), config: deps.config });
      found = typeof value === 'string' ? { body: value, type: doc.type, maxAgeSeconds: DISCOVERY_MAX_AGE_SECONDS } : jsonDocument(value, DISCOVERY_MAX_AGE_SECONDS, doc.type);
      if (built.size >= MAX_CACHED) built.clear();
      built.set(key, found);
    }
    return found;
  };

  for (const doc of DISCOVERY_DOCUMENTS) {
    for (const path of doc.paths) {
      router.get(path, async (ctx: AppContext) => sendCacheable(ctx, render(doc, ctx)));
    }
  }

  // MCP_REGISTRY_AUTH overrides; otherwise the service's own key, made once and kept in the
  // database, so the record works out of the box and stays the same across processes and restarts.
  const configured = deps.config.discovery.mcpRegistryAuth;
  let stored: Promise<string> | undefined;
  const registryRecord = (): Promise<string> => {
    stored ??= ensureMcpRegistryKey(deps.dataSource).then(mcpRegistryRecord);
    // A failed read (database down) is tried again by the next request.
    stored.catch(() => (stored = undefined));
    return stored;
  };
  for (const path of [DOCUMENT_PATHS.mcpRegistryAuth, `/api${DOCUMENT_PATHS.mcpRegistryAuth}`]) {
    router.get(path, async (ctx: AppContext) => {
      const record = configured ?? (await registryRecord());
      sendCacheable(ctx, { body: `${record}\n`, type: 'text/plain; charset=utf-8', maxAgeSeconds: DISCOVERY_MAX_AGE_SECONDS });
    });
  }
  return router;
}
