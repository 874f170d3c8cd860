import type { AppConfig } from '../../shared/config';
import type { Endpoint } from './endpoint-catalog';

/** The interface version the documents announce (interface description section 9). */
export const INTERFACE_VERSION = '1.0.0';

/** The MCP Streamable HTTP endpoint (POST only; served by the MCP family). */
export const MCP_PATH = '/api/mcp';

/** The OpenAPI document's path. */
export const OPENAPI_PATH = '/api/openapi.json';

/** The x402-over-A2A extension the agent card declares. */
export const A2A_X402_EXTENSION_URI = 'https://github.com/google-a2a/a2a-x402/v0.1';

/** One-paragraph description of the service, shared by every document. */
export const SERVICE_SUMMARY =
  'Scores a reply written by an AI agent for how human it reads: five dimensions (empathy, formality, directness, ' +
  'hesitation, response-timing cadence) judged against 28 human personality profiles, with an EQ score, a pass/fail ' +
  'verdict, machine-like signals with evidence and concrete advice. Paid per call over x402 (USDC, EIP-3009); no account, no API key.';

/** Where the discovery documents live, relative to the origin (each also under /api). */
export const DOCUMENT_PATHS = Object.freeze({
  llmsTxt: '/llms.txt',
  aiPlugin: '/.well-known/ai-plugin.json',
  aiPlugins: '/.well-known/ai-plugins.json',
  agentsJson: '/.well-known/agents.json',
  agentJson: '/.well-known/agent.json',
  agentCard: '/.well-known/agent-card.json',
  developerHandoff: '/.well-known/developer-handoff.json',
  mcpJson: '/.well-known/mcp.json',
  mcpServerCardWellKnown: '/.well-known/mcp/server-card.json',
  aiCatalog: '/.well-known/ai-catalog.json',
  mcpRegistryAuth: '/.well-known/mcp-registry-auth',
  /** The card's recommended home: `<streamable-http-url>/server-card`. */
  mcpServerCard: `${MCP_PATH}/server-card`,
  developerHandoffApi: '/api/developer-handoff',
  /** The service's icon (ai-plugin.json `logo_url`, the server card's `icons`). */
  icon: '/icon.svg',
});

/** What every document is built from: the public origin, the served endpoints, the config. */
export interface Site {
  /** Public origin (PUBLIC_BASE_URL or the request's own), no trailing slash. */
  origin: string;
  endpoints: readonly Endpoint[];
  config: AppConfig;
}

/**
 * An absolute URL on the site.
 * @param site - the site
 * @param path - a path starting with `/`
 * @returns the URL
 */
export function urlOf(site: Site, path: string): string {
  return `${site.origin}${path}`;
}

/**
 * The host of the site without a port (`humanlike.example`), for identifiers.
 * @param site - the site
 * @returns the host name
 */
export function hostOf(site: Site): string {
  return new URL(site.origin).hostname;
}

/**
 * The concrete URLs of an endpoint that a bare GET answers 200: itself when it is linkable, or one
 * per value when its path parameters are enumerations (the starter kit's files).
 * @param site - the site
 * @param endpoint - the endpoint
 * @returns the URLs (none for endpoints that need input, credentials or a POST)
 */
export function linksOf(site: Site, endpoint: Endpoint): string[] {
  if (endpoint.linkable) return [urlOf(site, endpoint.path)];
  if (endpoint.expansions) return endpoint.expansions.map((p) => urlOf(site, p));
  return [];
}
