import { randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import type { Logger } from '../logger';
import type { RequestContext } from './request-state';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Takes `X-Request-Id` when well-formed or makes one, echoes it, puts a child logger on
 * `ctx.state.log`, and logs one line per request once its response has gone out (or its
 * connection closed), so the line is not written on the caller's time. The client address, query
 * string and body are never logged (bodies hold texts and payment signatures). Shared by the API
 * and the facilitator.
 * @param logger - root logger of the process
 * @returns the middleware
 */
export function requestLogger(logger: Logger) {
  // The request line holds only the request id, method, path, status and duration, none of which
  // the redaction paths can match; the logger's wildcard paths cost about 6 µs per line, so this
  // one line is written without them. Every other line keeps the logger's redaction.
  const requestLines = logger.child({}, { redact: [] });
  return async function logRequest(ctx: RequestContext, next: Next): Promise<void> {
    const given = ctx.get('x-request-id');
    const reqId = REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.reqId = reqId;
    ctx.state.log = logger.child({ reqId });
    ctx.set('X-Request-Id', reqId);
    const started = process.hrtime.bigint();
    // 'close' comes once the response is written, or when the connection went first.
    ctx.res.once('close', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      requestLines.info({ reqId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request finished');
    });
    await next();
  };
}
