import type { FieldProblem } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { Product } from '../../shared/products';
import type { Charge } from './charge';
import type { PaidRequest, PaidWork } from './paid-work';

/** The call a paid product is prepared for, whatever the transport. */
export interface PaidCall {
  reqId: string;
  log: Logger;
  /**
   * A request header of the call ('' when absent). Over MCP this is the header of the MCP POST, so
   * per-call proofs (a bundle claim) are not carried there.
   */
  header(name: string): string;
  /**
   * The x402 v2 payment the call carries, undecoded: the PAYMENT-SIGNATURE header over HTTP, the
   * PaymentPayload in `_meta["x402/payment"]` over MCP. For products whose refusals depend on state
   * their own delivery changed (a duel's join): a retry of a reserved payment is recognised by it.
   */
  x402Payment?: string | object;
  /**
   * The absolute public URL of a path of this service (`PUBLIC_BASE_URL`, or the carrying request's
   * own origin), for links a delivery shows (a duel's challenge_url).
   */
  publicUrl(path: string): string;
}

/** What a validated request buys: the pipeline's request (charge, wallet, hash) and the work. */
export interface PreparedPurchase {
  request: PaidRequest;
  work: PaidWork;
}

/**
 * One catalog product as every transport sells it: the family defines it once, its HTTP route
 * and the MCP tool both run it through the one pipeline (`pay` / `payFor`), so the schema, the
 * live quote, the request hash and the work are the same whichever way an agent calls.
 * `api/routes.ts` (the composition root) collects every family's into the list the MCP endpoint
 * lists as tools, so a product added to the catalog and sold by a family is a tool with no MCP code.
 */
export interface PaidProduct {
  /** The catalog entry (id, path, tiers, prices). */
  product: Product;
  /** The JSON schema that validates the HTTP body; also the tool's input schema. */
  requestSchema: object;
  /** A more specific code and message for some failing fields (as `validateBody` takes). */
  refine?: (fields: FieldProblem[]) => { code: string; message: string } | undefined;
  /**
   * The query string a GET on the path takes (`tier` or `plan`, `wallet_address`); without one,
   * `wallet_address` alone (see `paidRoutes`).
   */
  quoteQuerySchema?: object;
  /**
   * The live quote without a request: the charge a GET on the path (or the quote tool) answers.
   * @param query - tier and wallet, when the product quotes per tier or per wallet
   */
  quote(query: { tier?: string; wallet_address?: string }): Promise<Charge>;
  /**
   * Builds the paid request and its work from a validated body (defaults applied before hashing).
   * @param body - the body, valid against `requestSchema`
   * @param call - request id, logger, headers
   */
  prepare(body: unknown, call: PaidCall): Promise<PreparedPurchase>;
  /**
   * The delivered result as a transport without streaming shows it (the MCP tool result); the
   * HTTP route may present it otherwise (a JSON Lines stream). Defaults to the delivered body.
   */
  presentForAgent?(delivered: Record<string, unknown>, body: unknown): Promise<Record<string, unknown>>;
}
