import { PRODUCT_TERMS } from '../../shared/products';
import { pricePhrase } from './endpoint-catalog';
import { A2A_X402_EXTENSION_URI, DOCUMENT_PATHS, INTERFACE_VERSION, MCP_PATH, OPENAPI_PATH, SERVICE_SUMMARY, hostOf, urlOf, type Site } from './site';

/** The MCP protocol versions the endpoint accepts (the SDK's supported list's newest entries). */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'];

/** Media type of the MCP server card (experimental-ext-server-card). */
export const SERVER_CARD_TYPE = 'application/mcp-server-card+json';

/** Media type of the AI catalog (docs/discovery.md of the server-card extension). */
export const AI_CATALOG_TYPE = 'application/ai-catalog+json';

/** Media type of an A2A agent card entry in the AI catalog. */
export const AGENT_CARD_TYPE = 'application/a2a-agent-card+json';

/**
 * The server card's name: reverse-DNS of the public host with one `/` (`example.com` ->
 * `com.example/humanlike`), the form the MCP registry verifies for a domain.
 * @param site - the site
 * @returns the name
 */
export function serverName(site: Site): string {
  return `${hostOf(site).split('.').reverse().join('.')}/humanlike`;
}

/**
 * The MCP server card (SEP-2127, experimental-ext-server-card `ServerCard`): identity and the
 * streamable-http remote; no tool list (tools are listed at runtime).
 * @param site - the site
 * @returns the card
 */
export function buildServerCard(site: Site) {
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
    name: serverName(site),
    title: 'humanlike: human-likeness scoring for AI agents',
    // The schema caps the description at 100 characters.
    description: 'Scores AI-agent replies for how human they read; paid tools settle per call over x402.',
    version: INTERFACE_VERSION,
    websiteUrl: urlOf(site, DOCUMENT_PATHS.llmsTxt),
    remotes: [{ type: 'streamable-http', url: urlOf(site, MCP_PATH), supportedProtocolVersions: MCP_PROTOCOL_VERSIONS }],
    _meta: {
      'io.x402/payments': { x402Version: 2, network: site.config.payments.network, asset: site.config.payments.usdcAsset, metaKey: 'x402/payment' },
    },
  };
}

/**
 * The A2A agent card (A2A v1.0 fields, plus the v0.3 members `protocolVersion`, `url` and
 * `preferredTransport` so v0.3 clients read it too). The service speaks no A2A task protocol: its
 * skills are invoked through the MCP endpoint (an open-form protocol binding, `MCP`) or the HTTP API
 * the OpenAPI document describes. Paid skills need the x402 extension.
 * @param site - the site
 * @returns the card
 */
export function buildAgentCard(site: Site) {
  const mcp = urlOf(site, MCP_PATH);
  const paid = site.endpoints.filter((e) => e.kind === 'paid');
  const skills = [
    {
      id: 'free-score',
      name: 'Free human-likeness score',
      description: `Score one reply against a profile for free (${site.config.freeTier.scoreLimit} lifetime per caller; data_consent required). HTTP: POST /api/score.`,
      tags: ['scoring', 'free'],
      examples: ['Score this reply for the grief-support-peer profile, sent 45 seconds after the message.'],
      inputModes: ['application/json'],
      outputModes: ['application/json'],
    },
    ...paid.map((e) => ({
      id: e.product?.id ?? e.operationId,
      // The summary's head: "Stress test (180000 USDC units): ..." -> "Stress test".
      name: e.summary.split(/\s*[(:]/)[0].replace(/\s+over x402\.?$/, '').replace(/\.$/, ''),
      description: `${e.summary} HTTP: ${e.method} ${e.path}. Price: ${pricePhrase(e.prices ?? [])}. Paid per call over x402.`,
      tags: ['scoring', 'paid', 'x402'],
      inputModes: ['application/json'],
      outputModes: ['application/json'],
    })),
  ];
  return {
    name: 'humanlike',
    description: SERVICE_SUMMARY,
    version: INTERFACE_VERSION,
    supportedInterfaces: [{ url: mcp, protocolBinding: 'MCP', protocolVersion: '1.0' }],
    protocolVersion: '0.3.0',
    url: mcp,
    preferredTransport: 'MCP',
    provider: { organization: 'humanlike', url: urlOf(site, DOCUMENT_PATHS.llmsTxt) },
    documentationUrl: urlOf(site, OPENAPI_PATH),
    capabilities: {
      streaming: false,
      pushNotifications: false,
      extensions: [
        {
          uri: A2A_X402_EXTENSION_URI,
          description: `Paid skills require an x402 payment (exact scheme, USDC on ${site.config.payments.network}); activate with the X-A2A-Extensions header.`,
          required: true,
        },
      ],
    },
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills,
  };
}

/**
 * The AI catalog at /.well-known/ai-catalog.json: the MCP server card and the A2A agent card.
 * @param site - the site
 * @returns the catalog
 */
export function buildAiCatalog(site: Site) {
  const host = hostOf(site);
  return {
    specVersion: '1.0',
    entries: [
      { identifier: `urn:air:${host}:mcp:humanlike`, type: SERVER_CARD_TYPE, url: urlOf(site, DOCUMENT_PATHS.mcpServerCard) },
      { identifier: `urn:air:${host}:a2a:humanlike`, type: AGENT_CARD_TYPE, url: urlOf(site, DOCUMENT_PATHS.agentCard) },
    ],
  };
}

/**
 * The plugin manifest (ai-plugin.json, schema_version v1): no auth, the OpenAPI document.
 * @param site - the site
 * @returns the manifest
 */
export function buildAiPlugin(site: Site) {
  return {
    schema_version: 'v1',
    name_for_human: 'humanlike',
    name_for_model: 'humanlike',
    description_for_human: 'Score how human your AI agent\'s replies read, against 28 human personality profiles.',
    description_for_model:
      `${SERVICE_SUMMARY} Free: POST /api/score (${site.config.freeTier.scoreLimit} per caller, data_consent true). ` +
      'Paid endpoints answer 402 with x402 requirements; pay with PAYMENT-SIGNATURE and retry the same request once.',
    auth: { type: 'none' },
    api: { type: 'openapi', url: urlOf(site, OPENAPI_PATH), is_user_authenticated: false },
    logo_url: urlOf(site, DOCUMENT_PATHS.icon),
    legal_info_url: urlOf(site, '/api/pricing'),
  };
}

/**
 * The plugin directory (ai-plugins.json): this host's one plugin manifest.
 * @param site - the site
 * @returns the directory
 */
export function buildAiPlugins(site: Site) {
  return {
    schema_version: 'v1',
    plugins: [{ name: 'humanlike', manifest_url: urlOf(site, DOCUMENT_PATHS.aiPlugin), openapi_url: urlOf(site, OPENAPI_PATH) }],
  };
}

/**
 * agents.json (wild-card-ai agents.json 0.1): the OpenAPI document as the source, and one flow
 * per free or paid operation, each one action naming its operationId.
 * @param site - the site
 * @returns the document
 */
export function buildAgentsJson(site: Site) {
  const flows = site.endpoints
    .filter((e) => e.kind === 'paid' || (e.kind === 'free' && e.method === 'POST'))
    .map((e) => ({
      id: e.operationId,
      title: `${e.method} ${e.path}`,
      description: e.prices ? `${e.summary} Price: ${pricePhrase(e.prices)}; pay with x402 (402, then PAYMENT-SIGNATURE).` : e.summary,
      actions: [{ id: `${e.operationId}_action`, sourceId: 'humanlike', operationId: e.operationId }],
    }));
  return {
    agentsJson: '0.1.0',
    info: { title: 'humanlike', version: INTERFACE_VERSION, description: SERVICE_SUMMARY },
    sources: [{ id: 'humanlike', path: urlOf(site, OPENAPI_PATH) }],
    flows,
  };
}

/**
 * The developer handoff (/.well-known/developer-handoff.json, also GET /api/developer-handoff):
 * what an agent developer needs to start: where everything is, how paying works, the price list
 * and the starter kit's files.
 * @param site - the site
 * @returns the document
 */
export function buildDeveloperHandoff(site: Site) {
  const { payments, freeTier } = site.config;
  const u = (path: string) => urlOf(site, path);
  const starterKit = site.endpoints.find((e) => e.expansions && e.path.startsWith('/api/starter-kit/'));
  return {
    service: 'humanlike',
    version: INTERFACE_VERSION,
    description: SERVICE_SUMMARY,
    base_url: site.origin,
    documents: {
      openapi: u(OPENAPI_PATH),
      llms_txt: u(DOCUMENT_PATHS.llmsTxt),
      agent_card: u(DOCUMENT_PATHS.agentCard),
      mcp_server_card: u(DOCUMENT_PATHS.mcpServerCard),
      ai_catalog: u(DOCUMENT_PATHS.aiCatalog),
      pricing: u('/api/pricing'),
    },
    mcp: { endpoint: u(MCP_PATH), transport: 'streamable-http', response_mode: 'json', payment_meta_key: 'x402/payment', payment_response_meta_key: 'x402/payment-response' },
    payment: {
      protocol: 'x402',
      x402_version: 2,
      scheme: 'exact',
      network: payments.network,
      asset: payments.usdcAsset,
      asset_decimals: PRODUCT_TERMS.usdcDecimals,
      transfer: 'EIP-3009 TransferWithAuthorization (the payer needs no gas)',
      request_header: 'PAYMENT-SIGNATURE',
      challenge_header: 'PAYMENT-REQUIRED',
      receipt_header: 'PAYMENT-RESPONSE',
      legacy_header: 'X-PAYMENT',
      prepaid_header: 'X-BUNDLE-TOKEN',
      wallet_rule: 'wallet_address in the body must be the payment signer',
      retry_rule: 'retry a lost answer with the same authorization and the exact same request; never create a replacement payment',
    },
    free_tier: { endpoint: 'POST /api/score', lifetime_scores: freeTier.scoreLimit, data_consent_required: true, wishlist_before_score: freeTier.wishlistRequiredFrom },
    paid_endpoints: site.endpoints
      .filter((e) => e.kind === 'paid')
      .map((e) => ({
        method: e.method,
        path: e.path,
        operation_id: e.operationId,
        prices: (e.prices ?? []).map((p) => ({ tier: p.tier, usdc_units: p.usdcUnits, lamports: p.lamports })),
      })),
    starter_kit: { index: u('/api/starter-kit'), files: (starterKit?.expansions ?? []).map((p) => u(p)) },
  };
}
