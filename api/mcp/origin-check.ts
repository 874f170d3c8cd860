import type { AppConfig } from '../../shared/config';

/**
 * The browser origins allowed to call the MCP endpoint: the configured ones and the origin of the
 * public base URL. Never the request's own Host: a DNS-rebinding page has a matching Host.
 * @param config - the loaded config
 * @returns a predicate over the Origin header (absent: a non-browser client, allowed)
 */
export function mcpOriginCheck(config: Pick<AppConfig, 'http' | 'payments'>): (origin: string) => boolean {
  const allowed = new Set(config.http.mcpAllowedOrigins.map((o) => new URL(o).origin));
  if (config.payments.publicBaseUrl) allowed.add(new URL(config.payments.publicBaseUrl).origin);
  return (origin) => {
    if (origin === '') return true;
    let normalized: string;
    try {
      normalized = new URL(origin).origin;
    } catch {
      return false;
    }
    return allowed.has(normalized);
  };
}
