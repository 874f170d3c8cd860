import type { CatalogJob } from '../../shared/catalog/jobs';
import { MATCHER_VERSION } from '../../shared/catalog/match-jobs';
import { offeringById, type Offering } from '../../shared/catalog/offerings';
import { partnerOffering, type Partner } from './partner-store';

/**
 * An offering as answers show it: this service's own with an absolute address on the public
 * origin, a partner's with its own https address.
 * @param o - the offering
 * @param origin - the public origin
 * @returns the offering, ready to send
 */
export function presentOffering(o: Offering, origin: string): Offering {
  return o.kind === 'partner' ? o : { ...o, url: `${origin}${o.url}` };
}

/**
 * The offerings of a job: the service's own (best first), then the partners listed for it.
 * @param job - the job
 * @param partners - the partners listed for the job
 * @returns the offerings, not yet presented
 */
export function offeringsOfJob(job: CatalogJob, partners: readonly Partner[]): Offering[] {
  return [...job.offering_ids.map((id) => offeringById(id)!), ...partners.map(partnerOffering)];
}

/**
 * The path of a job's stable match.
 * @param slug - the job slug
 * @returns the path
 */
export const matchPath = (slug: string): string => `/api/catalog/match/${slug}`;

/**
 * The stable match of one job: the same answer for the same job until the catalog changes.
 * @param job - the job
 * @param partners - the partners listed for it
 * @param origin - the public origin
 * @returns the match
 */
export function presentJobMatch(job: CatalogJob, partners: readonly Partner[], origin: string) {
  return {
    job_slug: job.job_slug,
    title: job.title,
    description: job.description,
    primary_offering_id: job.offering_ids[0],
    offerings: offeringsOfJob(job, partners).map((o) => presentOffering(o, origin)),
    matcher_version: MATCHER_VERSION,
    select: { method: 'POST', url: `${origin}/api/catalog/match`, body: { job_slug: job.job_slug, offering_id: job.offering_ids[0] } },
  };
}
