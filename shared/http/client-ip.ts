import type { Next } from 'koa';
import proxyaddr from 'proxy-addr';
import { parseClientAddress } from './client-address';
import type { RequestContext } from './request-state';

/**
 * Resolves the client address once per request and sets it as `ctx.ip`, in its canonical form
 * (see {@link parseClientAddress}). The address is the socket's, or, behind proxies, the
 * X-Forwarded-For entry `trustedProxyHops` hops from the socket, counted from the right, as
 * Express's numeric `trust proxy` and Koa's `maxIpsCount` count them. The header is read with
 * proxy-addr, which skips empty entries: with Koa's own split, a trailing comma made the proxy
 * itself the client of every such request. An entry that is no IP address is kept as written, so
 * whatever needs the caller refuses it rather than guessing (see the free tier's caller key).
 * @param trustedProxyHops - how many proxies in front of the API append to X-Forwarded-For (0: the socket address)
 * @returns the middleware
 */
export function clientIp(trustedProxyHops: number) {
  const trust = (_address: string, hop: number) => hop < trustedProxyHops;
  return async function resolveClientIp(ctx: RequestContext, next: Next): Promise<void> {
    // undefined only when the socket is already gone and no proxy wrote an address.
    const entry = (proxyaddr(ctx.req, trust) as string | undefined) ?? 'unknown';
    ctx.request.ip = parseClientAddress(entry)?.address ?? entry;
    await next();
  };
}
