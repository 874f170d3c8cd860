import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJsonBody } from './body';
import { createEmbedForwarder, type EmbedForwarderOptions } from './core';

/** Options of the Express adapter: the forwarder's, and the path the component posts to. */
export interface ExpressAdapterOptions extends EmbedForwarderOptions {
  /** The host route the component's `endpoint` names (default `/humanlike/check`). */
  path?: string;
}

/**
 * Express middleware of the host adapter, written against the plain Node request and response
 * Express extends (so it also serves a bare `http.createServer`): answers `POST <path>` through
 * the forwarder; anything else goes to `next`. Uses `req.body` when `express.json()` ran, else
 * reads the JSON body itself.
 * @param options - forwarder options and the path
 * @returns the middleware `(req, res, next)`
 */
export function humanlikeExpress(options: ExpressAdapterOptions) {
  const path = options.path ?? '/humanlike/check';
  const forwarder = createEmbedForwarder(options);
  return function humanlikeCheck(req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: (err?: unknown) => void): void {
    const url = new URL(req.url ?? '/', 'http://host');
    if (url.pathname !== path || req.method !== 'POST') {
      next();
      return;
    }
    (async () => {
      const body = req.body !== undefined ? req.body : await readJsonBody(req);
      const send = (status: number, headers: Record<string, string>, payload: unknown) => {
        res.statusCode = status;
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
        res.setHeader('content-type', 'application/json; charset=utf-8');
        res.end(JSON.stringify(payload));
      };
      if (body === undefined) {
        send(400, {}, { error: { code: 'invalid_json', message: 'Send the check as a JSON body.', details: null } });
        return;
      }
      const key = req.headers['idempotency-key'];
      const answer = await forwarder.handle({ body, idempotencyKey: typeof key === 'string' && key !== '' ? key : undefined });
      send(answer.status, answer.headers, answer.body);
    })().catch(next);
  };
}
