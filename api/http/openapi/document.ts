import type { OperationSpec } from './operation';

/**
 * The credentials of operator and admin operations (README "Operating"): a bearer token minted by
 * `humanlike admin token create`, sent as `Authorization: Bearer hlo_...`. Two schemes, one per
 * role, because the roles are separate: an admin token is refused (403) where an operator token is needed.
 */
export const SECURITY_SCHEMES = {
  operatorToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'hlo_<43 base64url characters>',
    description: 'An operator credential (role operator): reads and metrics. Minted with `humanlike admin token create --role operator --ttl 30d`.',
  },
  adminToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'hlo_<43 base64url characters>',
    description: 'An admin credential (role admin): changes and the queue dashboard. Minted with `humanlike admin token create --role admin --ttl 1d`.',
  },
} as const;

/**
 * Builds the OpenAPI 3.1 document from the operation specs, whose body and query schemas are the
 * objects the validators compile: the document cannot drift from what is enforced.
 * @param operations - every operation the service serves
 * @param freeTier - the configured free-tier rules, for the document's description
 * @param version - the interface version
 * @returns the document
 */
export function buildOpenApiDocument(
  operations: readonly OperationSpec[],
  freeTier: { scoreLimit: number; wishlistRequiredFrom: number },
  version = '1.0.0',
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    // Every `{name}` of the path is a required path parameter.
    const pathParameters = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: op.pathParams?.[name] ?? { type: 'string' },
    }));
    const queryParameters = op.query
      ? Object.entries(op.query.properties).map(([name, schema]) => ({
          name,
          in: 'query',
          required: op.query?.required?.includes(name) ?? false,
          schema,
        }))
      : [];
    const headerParameters = (op.headers ?? []).map((h) => ({
      name: h.name,
      in: 'header',
      required: h.required ?? false,
      description: h.description,
      schema: h.schema,
    }));
    const all = [...pathParameters, ...queryParameters, ...headerParameters];
    const parameters = all.length > 0 ? all : undefined;
    const responses = Object.fromEntries(
      Object.entries(op.responses).map(([status, r]) => [
        status,
        {
          description: r.description,
          ...(r.headers ? { headers: r.headers } : {}),
          ...(r.schema
            ? {
                content: {
                  [r.mediaType ?? 'application/json']: { schema: r.schema },
                  ...Object.fromEntries((r.alternatives ?? []).map((a) => [a.mediaType, { schema: a.schema }])),
                },
              }
            : {}),
        },
      ]),
    );
    paths[op.path] ??= {};
    paths[op.path][op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: op.tags,
      ...(parameters ? { parameters } : {}),
      ...(op.security ? { security: [{ [op.security]: [] }] } : {}),
      ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Human-Likeness Scoring and Benchmark Service',
      version,
      description:
        'Scores text written by an AI agent against 28 human personality profiles. The engine scores English: a reply ' +
        'confidently in another language is refused with 422 unsupported_language (before any payment or free round); short ' +
        'texts whose language cannot be told are scored. Errors (every status but 402) are ' +
        '{"error": {"code", "message", "details"}}; 422 details list every failing field with its JSON path. ' +
        `Free tier: ${freeTier.scoreLimit} lifetime scores per caller (a keyed hash of the client address), data_consent must be true, ` +
        `one wishlist item before free score number ${freeTier.wishlistRequiredFrom} (403 wishlist_required), then 429 free_cap_reached with an upgrade block.`,
    },
    servers: [{ url: '/' }],
    paths,
    components: { securitySchemes: SECURITY_SCHEMES },
  };
}
