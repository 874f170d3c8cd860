import { createHash } from 'node:crypto';
import type { AppContext } from './context';

/** A document served with validators: its exact bytes, media type and freshness lifetime. */
export interface CacheableDocument {
  body: string;
  /** Media type, e.g. `application/json` or `text/plain; charset=utf-8`. */
  type: string;
  maxAgeSeconds: number;
}

/**
 * Answers a document with `Cache-Control` and a strong `ETag` (a hash of its bytes), or 304 with no
 * body when the request's `If-None-Match` names that tag (Koa's `ctx.fresh`, RFC 9110 section 13.1.2).
 * @param ctx - Koa context of a GET or HEAD
 * @param doc - the document
 */
export function sendCacheable(ctx: AppContext, doc: CacheableDocument): void {
  ctx.set('Cache-Control', `public, max-age=${doc.maxAgeSeconds}`);
  ctx.response.etag = `"${createHash('sha256').update(doc.body).digest('base64url').slice(0, 32)}"`;
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.type = doc.type;
  ctx.body = doc.body;
}

/**
 * A JSON document as served: two-space indented, so the ETag covers the exact bytes sent.
 * @param value - the document
 * @param type - its media type (default `application/json`)
 * @param maxAgeSeconds - freshness lifetime
 * @returns the cacheable document
 */
export function jsonDocument(value: unknown, maxAgeSeconds: number, type = 'application/json'): CacheableDocument {
  return { body: `${JSON.stringify(value, null, 2)}\n`, type, maxAgeSeconds };
}
