import {
  isSolanaError,
  SOLANA_ERROR__JSON_RPC__INTERNAL_ERROR,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
} from '@solana/kit';
import { AppError, UnavailableError, UpstreamError } from '../../../shared/errors';

// JSON-RPC 2.0 reserves -32000..-32099 for server errors; Solana uses them for node states that
// pass (unhealthy, behind, block not available yet, history not available).
const SERVER_ERROR_MIN = -32099;
const SERVER_ERROR_MAX = -32000;

function transient(cause: unknown, why: string): UnavailableError {
  return new UnavailableError('solana_rpc_unavailable', `The Solana node cannot check payments right now (${why}); nothing was charged, retry later.`, {
    cause,
  });
}

/**
 * Turns a failed Solana RPC call into the error the API answers with. Faults that pass (no
 * connection, timeout, HTTP 5xx or 429, a node that is unhealthy or behind) become 503
 * `solana_rpc_unavailable`; an answer we cannot use (HTTP 4xx, a JSON-RPC request error, a
 * reply that is not JSON) becomes 502 `solana_rpc_error`. Neither is a refusal: the payer's
 * transaction was not judged and nothing is charged.
 * @param err - what the RPC call threw
 * @returns the AppError to throw
 */
export function rpcFailureToAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isSolanaError(err, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)) {
    const status = err.context.statusCode;
    if (status >= 500 || status === 429 || status === 408) return transient(err, `HTTP ${status}`);
    return new UpstreamError('solana_rpc_error', `The Solana node refused the request with HTTP ${status}.`, err);
  }
  if (isSolanaError(err)) {
    const code = err.context.__code;
    if ((code >= SERVER_ERROR_MIN && code <= SERVER_ERROR_MAX) || code === SOLANA_ERROR__JSON_RPC__INTERNAL_ERROR) {
      return transient(err, `JSON-RPC error ${code}`);
    }
    return new UpstreamError('solana_rpc_error', `The Solana node answered with an error (${code}).`, err);
  }
  if (err instanceof SyntaxError) return new UpstreamError('solana_rpc_error', 'The Solana node answered with something other than JSON.', err);
  const name = (err as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return transient(err, 'timed out');
  // What is left is the network: fetch's "fetch failed" TypeError (refused, reset, DNS).
  return transient(err, 'unreachable');
}
