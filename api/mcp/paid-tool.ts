import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentCall } from '../http/agent-tool';
import type { AppDeps } from '../http/deps';
import type { PaidProduct } from '../payments/paid-product';
import type { PaidResource, PaymentExchange } from '../payments/payment-exchange';
import { payFor } from '../payments/pay';
import { jsonResult, MCP_PAYMENT_META_KEY, MCP_PAYMENT_RESPONSE_META_KEY, MCP_REPLAYED_META_KEY } from './tool-result';

/** A tool call over MCP: the caller, the call's `_meta`, and the headers of the MCP POST. */
export interface PaidToolCall extends AgentCall {
  meta: Record<string, unknown>;
  header(name: string): string;
}

// How to pay, in every challenge a tool answers.
const HOW_TO_PAY_OVER_MCP = `Sign the first entry of accepts (EIP-3009) and call the tool again with the same arguments and the PaymentPayload object in params._meta["${MCP_PAYMENT_META_KEY}"].`;

/**
 * The resource of a tool: `mcp://tool/<name>` (the x402 MCP transport's convention). A payment
 * must name it in `resource.url`; one signed for the HTTP path does not pay the tool.
 * @param name - the tool's name
 * @returns the resource
 */
export function toolResource(name: string): PaidResource {
  const url = `mcp://tool/${name}`;
  return { url, key: url };
}

/**
 * A paid tool call on the one payment pipeline (x402 over MCP): without payment the result is an
 * `isError` result whose `structuredContent` is the PaymentRequired object (the body the HTTP 402
 * carries); the paid retry carries the PaymentPayload in `_meta["x402/payment"]` (or a bundle
 * token in `_meta["humanlike/bundle-token"]` where the product takes one); the delivery carries
 * the SettleResponse in `_meta["x402/payment-response"]`. A refused settlement answers the
 * PaymentRequired result (with its success: false SettleResponse in the same `_meta` key) and
 * withholds the output. Reservation, replay, 409, ledger, feed and
 * receipts are the pipeline's, as on HTTP.
 * @param deps - app dependencies
 * @param paid - the product
 * @param args - the validated arguments (the HTTP body)
 * @param call - the caller and the call's `_meta`
 * @returns the tool result
 * @throws AppError as the pipeline throws (the catalog turns it into an isError result)
 */
export async function payTool(deps: AppDeps, paid: PaidProduct, args: unknown, call: PaidToolCall): Promise<CallToolResult> {
  const payment = call.meta[MCP_PAYMENT_META_KEY];
  const carried = typeof payment === 'string' || (typeof payment === 'object' && payment !== null) ? payment : undefined;
  const { request, work } = await paid.prepare(args, { ...call, x402Payment: carried });
  const exchange: PaymentExchange = {
    resource: toolResource(paid.product.id),
    // Per-call proofs ride in the call's _meta, never in the MCP POST's headers.
    proofs: { header: () => undefined, meta: (key) => call.meta[key], body: args as Record<string, unknown> },
    reqId: call.reqId,
    log: call.log,
    canary: call.canary,
    viaProofCard: false,
  };
  const outcome = await payFor(exchange, deps, request, work);
  if (outcome.kind === 'payment-required') {
    const body = outcome.challenge.body;
    // The pipeline's message tells HTTP callers to use PAYMENT-SIGNATURE; say where MCP puts it.
    const message = body.error === 'payment_required' ? HOW_TO_PAY_OVER_MCP : body.message;
    // A refused settlement's SettleResponse (success: false) rides along, as PAYMENT-RESPONSE does on the HTTP 402.
    const meta = outcome.receipt ? { meta: { [MCP_PAYMENT_RESPONSE_META_KEY]: outcome.receipt } } : {};
    return jsonResult({ ...body, ...(message === undefined ? {} : { message }) }, { isError: true, ...meta });
  }
  const body = paid.presentForAgent ? await paid.presentForAgent(outcome.body, args) : outcome.body;
  const meta: Record<string, unknown> = {};
  if (outcome.receipt) meta[MCP_PAYMENT_RESPONSE_META_KEY] = outcome.receipt;
  if (outcome.replayed) meta[MCP_REPLAYED_META_KEY] = true;
  return jsonResult(body, { meta });
}
