import { AppError } from '../../../shared/errors';
import { OutboundRefusal } from '../../../shared/http/outbound-guard';

// Refusals decided on the address itself (before any connection), told apart from a site that
// was reachable in principle but did not answer usefully.
const ADDRESS_REASONS = new Set(['invalid_url', 'scheme', 'port', 'credentials', 'address']);

/**
 * Runs one fetch of the caller's site and turns the guard's refusal into the caller's error: a
 * 422 naming the reason (the address is the caller's input, never a fault of this service).
 * @param what - which fetch (challenge or page), for the message and details
 * @param fetchSite - the fetch, through the outbound guard
 * @returns what the fetch returned
 * @throws AppError 422 site_address_refused (address, port, scheme...) or site_fetch_failed (timeout, too large, redirects...)
 */
export async function fetchingSite<T>(what: 'challenge' | 'page', fetchSite: () => Promise<T>): Promise<T> {
  try {
    return await fetchSite();
  } catch (err) {
    if (!(err instanceof OutboundRefusal)) throw err;
    const field = what === 'challenge' ? 'site_origin' : 'page_url';
    if (ADDRESS_REASONS.has(err.reason)) {
      throw new AppError(422, 'site_address_refused', `The ${what} was not fetched: ${err.message}`, { details: { reason: err.reason, field, fetch: what } });
    }
    throw new AppError(422, 'site_fetch_failed', `The ${what} could not be fetched: ${err.message}`, { details: { reason: err.reason, field, fetch: what } });
  }
}
