import type { Context, Next } from 'koa';
import { readJsonBody } from './body';
import { createEmbedForwarder, type EmbedForwarderOptions } from './core';

/** Options of the Koa adapter: the forwarder's, and the path the component posts to. */
export interface KoaAdapterOptions extends EmbedForwarderOptions {
  /** The host route the component's `endpoint` names (default `/humanlike/check`). */
  path?: string;
}

/**
 * Koa middleware of the host adapter: answers `POST <path>` from the browser component through
 * the forwarder (see `createEmbedForwarder`); every other request goes to `next`. Uses
 * `ctx.request.body` when a body parser ran, else reads the JSON body itself.
 * @param options - forwarder options and the path
 * @returns the middleware
 */
export function humanlikeKoa(options: KoaAdapterOptions) {
  const path = options.path ?? '/humanlike/check';
  const forwarder = createEmbedForwarder(options);
  return async function humanlikeCheck(ctx: Context, next: Next): Promise<void> {
    if (ctx.path !== path || ctx.method !== 'POST') return next();
    const parsed = (ctx.request as { body?: unknown }).body;
    const body = parsed !== undefined ? parsed : await readJsonBody(ctx.req);
    if (body === undefined) {
      ctx.status = 400;
      ctx.body = { error: { code: 'invalid_json', message: 'Send the check as a JSON body.', details: null } };
      return;
    }
    const answer = await forwarder.handle({ body, idempotencyKey: ctx.get('idempotency-key') || undefined });
    ctx.status = answer.status;
    ctx.set(answer.headers);
    ctx.body = answer.body;
  };
}
