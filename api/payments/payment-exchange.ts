import type { SettleResponse } from '@x402/core/types';
import type { Logger } from '../../shared/logger';
import type { Challenge } from './challenge';
import type { PaymentHeaderName } from './payment-header-error';

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

/** The payment proofs one call carries, read from HTTP headers and body, or from MCP `_meta`. */
export interface PaymentProofs {
  /** An x402 v2 PaymentPayload: base64 (the PAYMENT-SIGNATURE header) or the object itself (MCP `_meta`). */
  x402?: { source: PaymentHeaderName; value: string | object };
  /** The legacy `X-PAYMENT` header (x402 v1, SOL). */
  legacyHeader?: string;
  /** A legacy `tx_hash` from the validated request body. */
  txHash?: unknown;
  /** An `X-BUNDLE-TOKEN`. */
  bundleToken?: string;
}

/** One paid call as the pipeline sees it, whatever the transport. */
export interface PaymentExchange {
  resource: PaidResource;
  proofs: PaymentProofs;
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
