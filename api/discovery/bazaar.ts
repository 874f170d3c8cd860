import { BAZAAR, bazaarResourceServerExtension, declareDiscoveryExtension } from '@x402/extensions/bazaar';
import { PRODUCTS } from '../../shared/products';
import type { OperationSpec } from '../http/openapi/operation';
import { exampleOf } from './schema-example';

/** The `extensions` of a product's 402 challenges, by product id (the ledger's product name). */
export type ChallengeExtensions = ReadonlyMap<string, Record<string, unknown>>;

/**
 * The x402 Bazaar discovery extension of every paid product this server serves, so facilitators
 * that index paid resources list it: the input is the JSON schema that validates the request body
 * (with an example that satisfies it), the output the schema of the 200 answer (with an example).
 * Built once from the OpenAPI document's operations: the declaration cannot drift from what is enforced.
 * @param operations - `apiOperations(config)`
 * @returns the extensions by product id
 */
export function bazaarExtensions(operations: readonly OperationSpec[]): ChallengeExtensions {
  const byProduct = new Map<string, Record<string, unknown>>();
  for (const product of Object.values(PRODUCTS)) {
    const op = operations.find((o) => o.method === 'post' && o.path === product.path);
    if (!op?.body) continue;
    const input = op.body as Record<string, unknown>;
    const output = op.responses['200']?.schema as Record<string, unknown> | undefined;
    const declared = declareDiscoveryExtension({
      bodyType: 'json',
      input: exampleOf(input) as Record<string, unknown>,
      inputSchema: input,
      ...(output ? { output: { example: exampleOf(output), schema: output } } : {}),
    });
    byProduct.set(product.id, withMethod(product.path, declared[BAZAAR.key]));
  }
  return byProduct;
}

// The library's resource-server hook adds the HTTP method (in info and schema) per request inside
// x402ResourceServer. Our challenge is built without that server, and a paid product is always a
// POST at a fixed path, so the hook runs once here with that request's shape.
function withMethod(path: string, declaration: unknown): Record<string, unknown> {
  const adapter = { getPath: () => path };
  return { [BAZAAR.key]: bazaarResourceServerExtension.enrichDeclaration?.(declaration, { method: 'POST', path, routePattern: path, adapter }) ?? declaration };
}
