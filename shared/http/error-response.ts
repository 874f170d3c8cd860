import type { AppError } from '../errors';
import type { RequestContext } from './request-state';

/**
 * Answers with the one error body every status but 402 uses, `{"error": {"code", "message", "details"}}`
 * (plus the error's top-level extras), and logs it: server faults at error level with the cause,
 * client faults at info without it. Messages and details are sent only when the error is exposable.
 * @param ctx - Koa context
 * @param err - the normalized error
 * @param caught - what was thrown, for the log
 */
export function respondWithError(ctx: RequestContext, err: AppError, caught: unknown): void {
  if (err.status >= 500) ctx.state.log?.error({ err: caught, code: err.code }, 'request failed');
  else ctx.state.log?.info({ code: err.code, status: err.status }, 'request rejected');
  ctx.status = err.status;
  if (err.headers) ctx.set(err.headers);
  ctx.body = {
    ...(err.expose ? err.extra : undefined),
    error: {
      code: err.code,
      message: err.expose ? err.message : 'Internal error; the failure was logged with this request id.',
      details: err.expose ? (err.details ?? null) : { request_id: ctx.state.reqId },
    },
  };
}
