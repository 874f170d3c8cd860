import type { OperationSpec } from '../http/openapi/operation';
import { errorBodySchema } from '../http/responses.schema';
import { DISCOVERY_DOCUMENTS, DISCOVERY_MAX_AGE_SECONDS } from './documents';
import { DISCOVERY_TAG } from './endpoint-catalog';
import { DOCUMENT_PATHS } from './site';

const CACHE_HEADERS = {
  'Cache-Control': { description: `public, max-age=${DISCOVERY_MAX_AGE_SECONDS}`, schema: { type: 'string' } },
  ETag: { description: 'Strong validator of the exact bytes; send it back in If-None-Match to get 304.', schema: { type: 'string' } },
};

const IF_NONE_MATCH = { name: 'If-None-Match', description: 'An ETag from an earlier answer: 304 with no body when the document is unchanged.', schema: { type: 'string' } };

const ORIGIN_NOTE =
  'Every URL inside is absolute and starts with PUBLIC_BASE_URL (unset: the request\'s own protocol and Host when no proxy ' +
  'is trusted; behind a trusted proxy the answer is 503 public_base_url_not_configured). The Origin header is never used.';

function schemaOf(type: string): object {
  return type.includes('json') ? { type: 'object' } : { type: 'string' };
}

// Suffixes keep operationIds unique across a document's paths: root, /api, and the extra alias.
function operationIdOf(base: string, path: string, index: number): string {
  if (index === 0) return base;
  return path.startsWith('/api/.well-known/') || path === '/api/llms.txt' || path === '/api/icon.svg' ? `${base}Api` : `${base}Alias`;
}

/** OpenAPI specs of the discovery documents: one operation per path each is served at. */
export const discoveryOperations: OperationSpec[] = [
  ...DISCOVERY_DOCUMENTS.flatMap((doc) =>
    doc.paths.map(
      (path, index): OperationSpec => ({
        method: 'get',
        path,
        operationId: operationIdOf(doc.operationId, path, index),
        summary: doc.summary,
        description: `${doc.paths.length > 1 ? `Also served at ${doc.paths.filter((p) => p !== path).join(', ')}. ` : ''}${ORIGIN_NOTE}`,
        tags: [DISCOVERY_TAG],
        headers: [IF_NONE_MATCH],
        responses: {
          '200': { description: `The document (${doc.type}).`, mediaType: doc.type.split(';')[0], schema: schemaOf(doc.type), headers: CACHE_HEADERS },
          '304': { description: 'Not modified: the If-None-Match tag is current.' },
          '503': { description: 'public_base_url_not_configured: behind a trusted proxy with no PUBLIC_BASE_URL.', schema: errorBodySchema },
        },
      }),
    ),
  ),
  ...[DOCUMENT_PATHS.mcpRegistryAuth, `/api${DOCUMENT_PATHS.mcpRegistryAuth}`].map(
    (path, index): OperationSpec => ({
      method: 'get',
      path,
      operationId: index === 0 ? 'getMcpRegistryAuth' : 'getMcpRegistryAuthApi',
      summary: 'The MCP registry\'s HTTP domain-verification record (text/plain, `v=MCPv1; k=ed25519; p=<public key>`).',
      description:
        'The public half of a key pair the service made on first need and keeps in its database (the operator gets the ' +
        'private half, for the registry publisher\'s `login http`, from `humanlike admin mcp-registry`); MCP_REGISTRY_AUTH, ' +
        'when set, is served instead.',
      tags: [DISCOVERY_TAG],
      headers: [IF_NONE_MATCH],
      responses: {
        // No schema: the record is one line of text for the registry, not a document for crawlers.
        '200': { description: 'The record (text/plain).', headers: CACHE_HEADERS },
        '304': { description: 'Not modified.' },
        '503': { description: 'database_unavailable: the key could not be read.', schema: errorBodySchema },
      },
    }),
  ),
];
