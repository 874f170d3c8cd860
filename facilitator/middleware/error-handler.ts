import { STATUS_CODES } from 'node:http';
import type { Next } from 'koa';
import { BaseError } from 'viem';
import { AppError, InternalError, NotFoundError, UpstreamError } from '../../shared/errors';
import { respondWithError } from '../../shared/http/error-response';
import type { FacilitatorContext } from '../context';

// viem's names for "the chain's RPC endpoint did not answer" (as opposed to a bug here).
const TRANSPORT_FAILURES = new Set(['HttpRequestError', 'TimeoutError', 'WebSocketRequestError', 'SocketClosedError']);

function normalize(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof BaseError && err.walk((e) => e instanceof BaseError && TRANSPORT_FAILURES.has(e.name))) {
    return new UpstreamError('chain_unavailable', 'The chain RPC endpoint did not answer; retry later.', err);
  }
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = (STATUS_CODES[status] ?? 'bad request').toLowerCase().replace(/[^a-z0-9]+/g, '_');
    return new AppError(status, code, `${STATUS_CODES[status] ?? 'Bad request'}.`);
  }
  return new InternalError(err instanceof Error ? err.message : 'unexpected error', 'internal_error', err);
}

/**
 * The facilitator's one error handler: every failure becomes `{"error": {"code", "message",
 * "details"}}` (plus the error's top-level extras, e.g. `isValid: false` on `/verify`, so x402's
 * HTTP facilitator client raises a typed VerifyError or SettleError) with its status. Server
 * faults are logged at error level and their message is not sent.
 * @returns the middleware; mount it right after the request logger
 */
export function errorHandler() {
  return async function handleErrors(ctx: FacilitatorContext, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.body == null && ctx.status === 404) throw new NotFoundError();
      if (ctx.body == null && ctx.status === 405) throw new AppError(405, 'method_not_allowed', 'This method is not allowed on this path; see the Allow header.');
    } catch (caught) {
      respondWithError(ctx, normalize(caught), caught);
    }
  };
}
