import type { SettleResponse } from '@x402/core/types';
import type { Logger } from '../../shared/logger';
import type { Challenge } from './challenge';

/**
 * Where a paid call is made. Over HTTP the resource is the request path; over MCP it is the tool,
 * `mcp://tool/<name>` (the x402 MCP transport's convention), so a payment signed for one transport
 * cannot be spent on the other.
 */
export interface PaidResource {
  /** Absolute URL offered in the challenge's `resource.url`. */
  url: string;
  /**
   * What a payment's `resource.url` must name ({@link resourceKeyOf}): the path for HTTP, the whole
   * URL for MCP. Stored on the authorization; scopes Idempotency-Keys.
   */
  key: string;
}

/**
 * Where a call's proofs of payment are, whatever the transport: HTTP has headers and a body, MCP
 * has the call's `_meta` and its arguments. Each payment method reads what it needs from here.
 */
export interface CallProofs {
  /** A request header of this call, undefined when absent; over MCP there are none (see `PaidCall.header`). */
  header(name: string): string | undefined;
  /** A member of the MCP call's `_meta`; over HTTP, undefined. */
  meta(key: string): unknown;
  /** The validated body (HTTP) or tool arguments (MCP). */
  body: Readonly<Record<string, unknown>> | undefined;
}

/** One paid call as the pipeline sees it, whatever the transport. */
export interface PaymentExchange {
  resource: PaidResource;
  proofs: CallProofs;
  /** The raw Idempotency-Key, when the transport carries one. */
  idempotencyKey?: string;
  reqId: string;
  log: Logger;
  /** Canary traffic (an operator credential, `api/http/canary.ts`): the proof cards count it apart. */
  canary: boolean;
  /** The call came from a proof card's copyable request (`?via=proof-card`): attributed to it. */
  viaProofCard: boolean;
}

/** What the pipeline answers: a challenge (402 over HTTP, an isError result over MCP) or the delivery. */
export type PayOutcome =
  | {
      kind: 'payment-required';
      /** The challenge: the body every transport shows, and the v2 PAYMENT-REQUIRED header value. */
      challenge: Challenge;
      /** The settlement receipt when a settlement was refused. */
      receipt?: SettleResponse;
    }
  | {
      kind: 'delivered';
      body: Record<string, unknown>;
      /** The settlement response (per-call payments; none for a bundle credit). */
      receipt?: SettleResponse;
      /** An earlier delivery of the same payment, answered again. */
      replayed: boolean;
    };

/**
 * The key of a payment's `resource.url`: the path of an http(s) URL (the service may sit behind
 * several origins), the URL itself otherwise (`mcp://tool/<name>`).
 * @param url - the URL the payment names
 * @returns the key, or undefined when it is not an absolute URL
 */
export function resourceKeyOf(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.pathname : url;
}
