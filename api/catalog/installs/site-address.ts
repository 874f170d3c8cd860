import type { AppConfig } from '../../../shared/config';
import { ValidationError } from '../../../shared/errors';

const STANDARD_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

function refuse(path: string, rule: string, message: string): ValidationError {
  return new ValidationError([{ path, rule, message }]);
}

/**
 * A site origin as the workflow stores it (`URL.origin`: lowercase scheme and host, no default
 * port). Only what the URL itself says is decided here (scheme, port, no path or credentials);
 * where the name leads is the outbound guard's decision, at the first fetch.
 * @param raw - the body's site_origin
 * @param outbound - the guard's widening for development and tests (extra ports)
 * @returns the origin
 * @throws ValidationError naming /site_origin
 */
export function siteOriginOf(raw: string, outbound: AppConfig['outbound']): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('/site_origin', 'format', 'must be an absolute http(s) origin, e.g. https://www.example.com');
  }
  const standard = STANDARD_PORTS[url.protocol];
  if (standard === undefined) throw refuse('/site_origin', 'scheme', 'must use http or https');
  if (url.username !== '' || url.password !== '') throw refuse('/site_origin', 'credentials', 'must not carry a user name or password');
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || /[?#]/.test(raw)) {
    throw refuse('/site_origin', 'origin', 'must be an origin only (no path, query or fragment)');
  }
  const port = url.port === '' ? standard : Number(url.port);
  if (port !== 80 && port !== 443 && !outbound.allowPorts.includes(port)) throw refuse('/site_origin', 'port', 'must use port 80 or 443 (a development server may allow another with OUTBOUND_ALLOW_PORTS)');
  return url.origin;
}

/**
 * The page of an installation, on the workflow's own origin.
 * @param raw - the body's page_url
 * @param origin - the workflow's origin
 * @returns the page URL, normalized (no fragment)
 * @throws ValidationError naming /page_url
 */
export function pageUrlOf(raw: string, origin: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('/page_url', 'format', 'must be an absolute URL on the site origin');
  }
  if (url.origin !== origin || url.username !== '' || url.password !== '') throw refuse('/page_url', 'same_origin', `must be a page of ${origin}`);
  url.hash = '';
  return url.toString();
}
