import { buildAgentCard, buildAgentsJson, buildAiCatalog, buildAiPlugin, buildAiPlugins, buildDeveloperHandoff, buildServerCard, AI_CATALOG_TYPE, SERVER_CARD_TYPE } from './cards';
import { ICON_SVG } from './icon';
import { buildLlmsTxt } from './llms-txt';
import { DOCUMENT_PATHS as P, type Site } from './site';

/** One discovery document: where it is served, as what, and how it is built. */
export interface DiscoveryDocument {
  /** Every path it is served at (the root one first; the interface description puts most under /api too). */
  paths: readonly string[];
  operationId: string;
  summary: string;
  /** Media type; JSON documents are sent two-space indented. */
  type: string;
  /** Text documents return the text; JSON documents the value. */
  build(site: Site): string | object;
}

const JSON_TYPE = 'application/json';

const both = (path: string) => [path, `/api${path}`];

/** Every discovery document, in the order the OpenAPI document lists them. */
export const DISCOVERY_DOCUMENTS: readonly DiscoveryDocument[] = [
  { paths: both(P.llmsTxt), operationId: 'getLlmsTxt', summary: 'llms.txt: what the service does, every endpoint with live prices, how to pay, the MCP endpoint, the manifests.', type: 'text/plain; charset=utf-8', build: buildLlmsTxt },
  { paths: both(P.agentCard), operationId: 'getAgentCard', summary: 'A2A agent card: skills, the MCP interface, the x402 extension.', type: JSON_TYPE, build: buildAgentCard },
  { paths: both(P.agentJson), operationId: 'getAgentJson', summary: 'The A2A agent card at its pre-0.3 location.', type: JSON_TYPE, build: buildAgentCard },
  { paths: [...both(P.mcpServerCardWellKnown), P.mcpServerCard], operationId: 'getMcpServerCard', summary: 'MCP server card (experimental server-card extension): identity and the streamable-http remote.', type: SERVER_CARD_TYPE, build: buildServerCard },
  { paths: both(P.mcpJson), operationId: 'getMcpJson', summary: 'The MCP server card at /.well-known/mcp.json, for crawlers of the SEP-1649 location.', type: SERVER_CARD_TYPE, build: buildServerCard },
  { paths: both(P.aiCatalog), operationId: 'getAiCatalog', summary: 'AI catalog: the MCP server card and the A2A agent card.', type: AI_CATALOG_TYPE, build: buildAiCatalog },
  { paths: both(P.aiPlugin), operationId: 'getAiPlugin', summary: 'Plugin manifest (ai-plugin.json v1): no auth, the OpenAPI document.', type: JSON_TYPE, build: buildAiPlugin },
  { paths: both(P.aiPlugins), operationId: 'getAiPlugins', summary: 'Plugin directory: this host\'s plugin manifest.', type: JSON_TYPE, build: buildAiPlugins },
  { paths: both(P.agentsJson), operationId: 'getAgentsJson', summary: 'agents.json 0.1: the OpenAPI document as source, one flow per free or paid call.', type: JSON_TYPE, build: buildAgentsJson },
  {
    paths: [...both(P.developerHandoff), P.developerHandoffApi],
    operationId: 'getDeveloperHandoff',
    summary: 'Developer handoff: base URL, documents, payment facts, paid endpoints with prices, the starter kit.',
    type: JSON_TYPE,
    build: buildDeveloperHandoff,
  },
  { paths: both(P.icon), operationId: 'getIcon', summary: 'The service icon (SVG).', type: 'image/svg+xml', build: () => ICON_SVG },
];

/** Seconds a discovery document stays fresh; clients revalidate with If-None-Match after that. */
export const DISCOVERY_MAX_AGE_SECONDS = 60;
