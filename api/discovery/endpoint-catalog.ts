import { livePrice, type PriceSettings } from '../../shared/operators/network-config';
import { PRODUCTS, type Product } from '../../shared/products';
import type { OperationSpec } from '../http/openapi/operation';

/** What kind of endpoint an operation is, for the discovery documents' sections. */
export type EndpointKind = 'paid' | 'quote' | 'free' | 'discovery' | 'operator' | 'retired';

/** One tier's live price: USDC atomic units (6 decimals) and legacy lamports. */
export interface TierPrice {
  tier: string;
  usdcUnits: number;
  lamports: number;
}

/** One endpoint as the discovery documents list it. */
export interface Endpoint {
  method: 'GET' | 'POST' | 'PATCH';
  /** OpenAPI form (`{param}`). */
  path: string;
  operationId: string;
  summary: string;
  kind: EndpointKind;
  /** The product a paid endpoint (or its quote) sells. */
  product?: Product;
  /** Live prices of a paid endpoint, one per tier. */
  prices?: TierPrice[];
  /**
   * Whether a bare GET on the path answers 200 with a document: no path template, no credential, no
   * required query or header, and a schema'd 200 (the event stream is no document). Only these are
   * written as links, so every link of every discovery document answers 200.
   */
  linkable: boolean;
  /**
   * For a GET whose path parameters are all enumerations (the starter kit's files): every concrete
   * path, each answering 200.
   */
  expansions?: string[];
}

/** Tags of operations that serve the discovery documents themselves. */
export const DISCOVERY_TAG = 'discovery';

function productAt(path: string): Product | undefined {
  return Object.values(PRODUCTS).find((p) => p.path === path);
}

function kindOf(op: OperationSpec, product: Product | undefined): EndpointKind {
  if (op.security) return 'operator';
  if (op.tags.includes('retired')) return 'retired';
  if (product && op.method === 'post') return 'paid';
  if (product && op.method === 'get') return 'quote';
  if (op.tags.includes(DISCOVERY_TAG)) return 'discovery';
  return 'free';
}

// Every concrete path of a public GET whose path parameters all have an `enum` schema.
function expansionsOf(op: OperationSpec): string[] | undefined {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
  if (op.method !== 'get' || op.security || names.length === 0 || !op.responses['200']) return undefined;
  let paths = [op.path];
  for (const name of names) {
    const values = (op.pathParams?.[name] as { enum?: unknown[] } | undefined)?.enum;
    if (!values) return undefined;
    paths = paths.flatMap((p) => values.map((v) => p.replace(`{${name}}`, encodeURIComponent(String(v)))));
  }
  return paths;
}

function isLinkable(op: OperationSpec): boolean {
  const ok = op.responses['200'];
  return (
    op.method === 'get' &&
    !op.path.includes('{') &&
    !op.security &&
    !(op.query?.required?.length ?? 0) &&
    !(op.headers ?? []).some((h) => h.required) &&
    ok !== undefined &&
    ok.schema !== undefined
  );
}

/**
 * Every operation the service serves (the OpenAPI document's list) as discovery entries, with the
 * live prices of the paid ones: the catalog's, with the runtime fee applied as `GET /api/pricing` does.
 * @param operations - `apiOperations(config)`
 * @param network - the runtime network configuration
 * @returns the endpoints, in the document's order
 */
export function listEndpoints(operations: readonly OperationSpec[], network: PriceSettings): Endpoint[] {
  return operations.map((op) => {
    const product = productAt(op.path);
    const kind = kindOf(op, product);
    const prices =
      product && (kind === 'paid' || kind === 'quote')
        ? Object.keys(product.tiers).map((tier) => ({ tier, ...pick(livePrice(product, tier, network)) }))
        : undefined;
    return {
      method: op.method.toUpperCase() as Endpoint['method'],
      path: op.path,
      operationId: op.operationId,
      summary: op.summary,
      kind,
      ...(product && prices ? { product, prices } : {}),
      linkable: isLinkable(op),
      ...(expansionsOf(op) ? { expansions: expansionsOf(op) } : {}),
    };
  });
}

function pick(p: { usdcUnits: number; lamports: number }) {
  return { usdcUnits: p.usdcUnits, lamports: p.lamports };
}

/**
 * A USDC amount in atomic units as a decimal string of USDC (50000 -> "0.05").
 * @param units - atomic units (6 decimals)
 * @returns the amount in USDC
 */
export function usdc(units: number): string {
  const whole = Math.floor(units / 1_000_000);
  const fraction = String(units % 1_000_000).padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/**
 * A paid endpoint's prices as one phrase ("basic 50000 (0.05 USDC) / deep 180000 (0.18 USDC) USDC units").
 * @param prices - its live tier prices
 * @returns the phrase
 */
export function pricePhrase(prices: readonly TierPrice[]): string {
  const one = (p: TierPrice) => `${p.usdcUnits} USDC units (${usdc(p.usdcUnits)} USDC; ${p.lamports} lamports on the legacy SOL rail)`;
  if (prices.length === 1) return one(prices[0]);
  return prices.map((p) => `${p.tier} ${one(p)}`).join('; ');
}
