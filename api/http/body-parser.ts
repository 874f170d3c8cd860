import { bodyParser } from '@koa/bodyparser';
import type { Next } from 'koa';
import { AppError } from '../../shared/errors';
import type { AppContext } from './context';

interface BodyError {
  status?: number;
  type?: string;
  code?: string;
  limit?: number;
}

// Everything that can go wrong while reading a body is the client's input, never a 500.
function toAppError(err: unknown, limit: number): AppError {
  const e = (err ?? {}) as BodyError;
  if (e.type === 'entity.too.large' || e.status === 413) {
    return new AppError(413, 'payload_too_large', `The request body is larger than ${limit} bytes.`, { details: { limit_bytes: limit } });
  }
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported' || e.status === 415) {
    return new AppError(415, 'unsupported_media_type', 'The body uses an unsupported Content-Encoding or charset; send plain UTF-8 JSON.');
  }
  if (err instanceof SyntaxError) {
    return new AppError(422, 'invalid_json', 'The request body is not valid JSON (a JSON object is expected).', {
      details: { fields: [{ path: '', rule: 'json', message: 'body is not a valid JSON object' }] },
    });
  }
  return new AppError(400, 'invalid_body', 'The request body could not be read (check its Content-Encoding and Content-Length).', { cause: err });
}

/**
 * Parses JSON bodies only, with a size limit; other content types are left unparsed (the
 * validator answers 415 for them). Read and parse failures become 413, 415, 422 invalid_json or
 * 400 invalid_body. `__proto__` keys are refused as invalid JSON.
 * @param limitBytes - largest accepted body
 * @returns the middleware
 */
export function jsonBodyParser(limitBytes: number) {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: limitBytes, encoding: 'utf-8' });
  const noop = async () => undefined;
  return async function parseJsonBody(ctx: AppContext, next: Next): Promise<void> {
    try {
      // Parse first, then run the rest of the chain outside the try: its errors are not body errors.
      await parse(ctx, noop);
    } catch (err) {
      throw toAppError(err, limitBytes);
    }
    await next();
  };
}
