import { STATUS_CODES } from 'node:http';
import type { Next } from 'koa';
import { databaseUnavailableError, isDatabaseUnavailable } from '../../shared/db/db-errors';
import { AppError, InternalError, NotFoundError } from '../../shared/errors';
import { respondWithError } from '../../shared/http/error-response';
import type { AppContext } from './context';

interface HttpishError {
  status?: number;
  statusCode?: number;
  message?: string;
  headers?: Record<string, string>;
}

// Turns what Koa and the router throw into AppErrors (the body parser maps its own). Client errors stay 4xx.
// A lost database is mapped here, once, so no route (present or future) answers it with a 500: a paid
// call failing in its reservation is as retryable as a free one.
function normalize(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isDatabaseUnavailable(err)) return databaseUnavailableError(err);
  const e = (err ?? {}) as HttpishError;
  const status = e.status ?? e.statusCode;
  if (status === 405) {
    return new AppError(405, 'method_not_allowed', 'This method is not allowed on this path.', { headers: e.headers });
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = (STATUS_CODES[status] ?? 'bad request').toLowerCase().replace(/[^a-z0-9]+/g, '_');
    return new AppError(status, code, `${STATUS_CODES[status] ?? 'Bad request'}.`);
  }
  return new InternalError(e.message ?? 'unexpected error', 'internal_error', err);
}

/**
 * The one error handler: every failure becomes `{"error": {"code", "message", "details"}}` with its
 * status (plus any top-level extras such as the free tier's `upgrade` block). PostgreSQL being
 * unreachable is a 503 `database_unavailable` on every route. Messages and details
 * are sent only when the error is exposable; server faults are logged at error level with the
 * error, client faults at info without it (a parse error carries the raw body).
 * @returns the middleware; mount it right after the request logger
 */
export function errorHandler() {
  return async function handleErrors(ctx: AppContext, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.body == null && ctx.status === 404) throw new NotFoundError();
      if (ctx.body == null && ctx.status === 405) {
        throw new AppError(405, 'method_not_allowed', 'This method is not allowed on this path; see the Allow header.');
      }
      if (ctx.body == null && ctx.status === 501) throw new AppError(501, 'not_implemented', 'This method is not implemented.', { expose: true });
    } catch (caught) {
      respondWithError(ctx, normalize(caught), caught);
    }
  };
}
