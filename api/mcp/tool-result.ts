import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { databaseUnavailableError, isDatabaseUnavailable } from '../../shared/db/db-errors';
import { AppError, InternalError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';

// The payment methods own the _meta keys they read; re-exported for the tool descriptions and tests.
export { MCP_PAYMENT_META_KEY } from '../payments/methods/x402-proof';
export { MCP_BUNDLE_TOKEN_META_KEY } from '../payments/methods/bundle-credit.method';
/** `_meta` key of the SettleResponse on a paid result (x402 MCP transport). */
export const MCP_PAYMENT_RESPONSE_META_KEY = 'x402/payment-response';
/** `_meta` key set on a result that replays an earlier delivery of the same payment (X-Payment-Replayed). */
export const MCP_REPLAYED_META_KEY = 'humanlike/payment-replayed';

/**
 * A tool result carrying a JSON object: as `structuredContent`, and as its JSON text in `content`
 * for clients that read text only (the MCP spec's advice for structured results).
 * @param value - the object
 * @param options - `isError`, `_meta`
 * @returns the result
 */
export function jsonResult(value: Record<string, unknown>, options: { isError?: boolean; meta?: Record<string, unknown> } = {}): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    structuredContent: value,
    ...(options.isError ? { isError: true } : {}),
    ...(options.meta ? { _meta: options.meta } : {}),
  };
}

/**
 * What a tool answers for a failure: an `isError` result whose structured content is the HTTP
 * error body (`{"error": {"code", "message", "details"}}`, plus extras such as the free tier's
 * `upgrade` block), so an agent reads the same codes over both transports. Server faults are
 * logged and hide their message, as on HTTP.
 * @param caught - what was thrown
 * @param log - the request's logger
 * @param reqId - the request id (shown for server faults)
 * @returns the result
 */
export function errorResult(caught: unknown, log: Logger, reqId: string): CallToolResult {
  const err =
    caught instanceof AppError ? caught : isDatabaseUnavailable(caught) ? databaseUnavailableError(caught) : new InternalError('tool failed', 'internal_error', caught);
  if (err.status >= 500) log.error({ err: caught, code: err.code }, 'tool call failed');
  else log.info({ code: err.code, status: err.status }, 'tool call rejected');
  return jsonResult(
    {
      ...(err.expose ? err.extra : undefined),
      error: {
        code: err.code,
        message: err.expose ? err.message : 'Internal error; the failure was logged with this request id.',
        details: err.expose ? (err.details ?? null) : { request_id: reqId },
        status: err.status,
      },
    },
    { isError: true },
  );
}
