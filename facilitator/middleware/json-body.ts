import { bodyParser } from '@koa/bodyparser';
import type { Next } from 'koa';
import { AppError } from '../../shared/errors';
import type { FacilitatorContext } from '../context';

/**
 * Parses a JSON object or array body with a size limit. Everything that can go wrong while reading
 * it is the client's fault and becomes a 4xx (400 `invalid_json`, 413, 415), never a 500.
 * @param limitBytes - largest accepted body
 * @param onError - builds the error (each route family has its own error body shape)
 * @returns the middleware
 */
export function jsonBody(limitBytes: number, onError: (status: number, code: string, message: string) => Error = defaultError) {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: limitBytes, encoding: 'utf-8' });
  const noop = async () => undefined;
  return async function parseJsonBody(ctx: FacilitatorContext, next: Next): Promise<void> {
    if (!ctx.is('application/json', '+json')) {
      throw onError(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
    }
    try {
      // Parse first, then run the rest of the chain outside the try: its errors are not body errors.
      await parse(ctx, noop);
    } catch (err) {
      const e = (err ?? {}) as { status?: number; type?: string };
      if (e.type === 'entity.too.large' || e.status === 413) throw onError(413, 'payload_too_large', `The request body is larger than ${limitBytes} bytes.`);
      if (e.status === 415) throw onError(415, 'unsupported_media_type', 'The body uses an unsupported Content-Encoding or charset; send plain UTF-8 JSON.');
      throw onError(400, 'invalid_json', 'The request body is not valid JSON (a JSON object is expected).');
    }
    await next();
  };
}

function defaultError(status: number, code: string, message: string): Error {
  return new AppError(status, code, message);
}
