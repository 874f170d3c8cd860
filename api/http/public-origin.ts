import type { AppConfig } from '../../shared/config';
import { UnavailableError } from '../../shared/errors';
import type { AppContext } from './context';

/**
 * The public origin of this service as a response names it: `PUBLIC_BASE_URL`, or the request's
 * own protocol and Host (the x402 resource URL, certificate and challenge links, tool results).
 * @param payments - the `payments` section of the config (its `publicBaseUrl`)
 * @param request - the request's protocol and Host
 * @returns the origin, without a trailing slash
 */
export function requestOrigin(payments: Pick<AppConfig['payments'], 'publicBaseUrl'>, request: { protocol: string; host: string }): string {
  return payments.publicBaseUrl ?? `${request.protocol}://${request.host}`;
}

/**
 * The origin every absolute URL of a discovery document starts with: `PUBLIC_BASE_URL`, or the
 * request's own protocol and Host when no proxy is trusted. Behind a trusted proxy an unset base URL
 * is refused rather than guessed: the Host a proxy forwards may be an internal name, and a manifest
 * that names the wrong origin would send agents elsewhere. Never the client's Origin header.
 * @param config - the loaded config
 * @param ctx - Koa context (its protocol and Host, read from the socket when no proxy is trusted)
 * @returns the origin, without a trailing slash
 * @throws UnavailableError public_base_url_not_configured behind a trusted proxy with no PUBLIC_BASE_URL
 */
export function publicOrigin(config: AppConfig, ctx: AppContext): string {
  const configured = config.payments.publicBaseUrl;
  if (configured) return configured;
  if (config.http.trustedProxyHops > 0) {
    throw new UnavailableError('public_base_url_not_configured', 'Set PUBLIC_BASE_URL: behind a proxy this server does not derive its public address from the request.');
  }
  // The document depends on the Host it was asked for; caches must keep one copy per Host.
  ctx.vary('Host');
  return requestOrigin(config.payments, ctx);
}
