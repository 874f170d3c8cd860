import { CATALOG_JOBS } from '../../shared/catalog/jobs';
import { MATCHER_VERSION } from '../../shared/catalog/match-jobs';
import { OFFERINGS } from '../../shared/catalog/offerings';
import { ATTRIBUTION_WINDOW_DAYS, QUERY_MAX_CHARS, QUERY_MIN_CHARS } from './catalog-match.schema';
import { SIGNATURE_TOLERANCE_SECONDS } from './conversions';
import { partnerOffering, type Partner } from './partner-store';
import { matchPath, presentOffering } from './present-offering';

/** The developer handoff document's paths: at the root and under /api, as the other discovery documents. */
export const CATALOG_DOCUMENT_PATHS = ['/.well-known/catalog.json', '/api/.well-known/catalog.json'] as const;

/**
 * The developer handoff document (`/.well-known/catalog.json`): every offering with how it is
 * installed, the ten jobs with their offerings, how to find and select a match, and how a partner
 * reports a conversion. Built from the offerings data and the listed partners; every URL absolute.
 * @param origin - the public origin
 * @param partners - the listed partners
 * @returns the document
 */
export function buildCatalogDocument(origin: string, partners: readonly Partner[]) {
  const api = (path: string) => `${origin}${path}`;
  return {
    schema_version: '1.0',
    name: 'humanlike catalog',
    description: 'What to use for a job: the offerings of this service (and listed partners), each with how it is installed, and the ten developer jobs they do.',
    matcher_version: MATCHER_VERSION,
    offerings: [...OFFERINGS, ...partners.map(partnerOffering)].map((o) => presentOffering(o, origin)),
    jobs: CATALOG_JOBS.map((job) => ({
      job_slug: job.job_slug,
      title: job.title,
      description: job.description,
      offering_ids: [...job.offering_ids, ...partners.filter((p) => p.job_slugs.includes(job.job_slug)).map((p) => p.partner_id)],
      match_url: api(matchPath(job.job_slug)),
    })),
    endpoints: {
      jobs: api('/api/catalog/jobs'),
      recommend: { url: api('/api/catalog/recommend'), query: { name: 'query', min_chars: QUERY_MIN_CHARS, max_chars: QUERY_MAX_CHARS, note: 'Short, non-sensitive keywords only: GET URLs can persist in logs.' } },
      match: api('/api/catalog/match/{job_slug}'),
      select: { method: 'POST', url: api('/api/catalog/match'), body: { job_slug: 'string', offering_id: 'string (optional)' } },
      attribution_summary: api('/api/catalog/attribution/summary'),
      openapi: api('/api/openapi.json'),
    },
    conversions: {
      url: api('/api/catalog/conversions'),
      signature: 'Standard Webhooks (https://www.standardwebhooks.com): webhook-id, webhook-timestamp, webhook-signature over the raw body, with the whsec_ secret the partner was given.',
      clock_skew_seconds: SIGNATURE_TOLERANCE_SECONDS,
      attribution_window_days: ATTRIBUTION_WINDOW_DAYS,
      counted: 'once per handoff',
    },
  };
}
