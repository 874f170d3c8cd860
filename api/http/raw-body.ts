import { AppError } from '../../shared/errors';
import type { AppContext } from './context';

/**
 * Reads a request's body as raw bytes, up to a limit: for the routes whose signature covers the
 * exact bytes received (a webhook, a signed conversion), which the JSON body parser leaves alone.
 * @param ctx - Koa context
 * @param limitBytes - largest accepted body
 * @returns the bytes
 * @throws AppError 413 payload_too_large
 */
export async function readRawBody(ctx: AppContext, limitBytes: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limitBytes) throw new AppError(413, 'payload_too_large', `The request body is larger than ${limitBytes} bytes.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) throw new AppError(413, 'payload_too_large', `The request body is larger than ${limitBytes} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
