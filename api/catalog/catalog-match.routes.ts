import Router from '@koa/router';
import { CATALOG_JOBS, jobBySlug } from '../../shared/catalog/jobs';
import { MATCHER_VERSION, recommendJobs } from '../../shared/catalog/match-jobs';
import { offeringById } from '../../shared/catalog/offerings';
import { AppError, ValidationError } from '../../shared/errors';
import { jsonDocument, sendCacheable } from '../http/cacheable';
import { callerHashFor } from '../http/caller-key';
import type { AppContext, AppState } from '../http/context';
import { createRouter } from '../http/create-router';
import type { AppDeps } from '../http/deps';
import { operatorCredentialCheck } from '../http/operator-guard';
import { publicOrigin } from '../http/public-origin';
import { readRawBody } from '../http/raw-body';
import { validateBody, validateQuery } from '../http/validate';
import { loadPublicSummary, loadVendorTotals } from './attribution-summary';
import { CATALOG_DOCUMENT_PATHS, buildCatalogDocument } from './catalog-document';
import { JOB_SLUG_PATTERN, matchRequestSchema, partnerRequestSchema, recommendQuerySchema, summaryQuerySchema } from './catalog-match.schema';
import { CONVERSIONS_PATH, parseConversion, recordConversion, verifyConversionSignature } from './conversions';
import { createHandoffRateLimit } from './handoff-rate-limit';
import { recordHandoff } from './handoff-store';
import { createPartner, listPartners, partnerOffering, partnerSecretBox, partnersForJob, type PartnerInput } from './partner-store';
import { matchPath, offeringsOfJob, presentJobMatch, presentOffering } from './present-offering';
import { queryFingerprinter } from './query-fingerprint';

const DOCUMENT_MAX_AGE_SECONDS = 300;
const SLUG = new RegExp(JOB_SLUG_PATTERN);

const jobOf = (slug: string) => {
  if (slug.length > 64 || !SLUG.test(slug)) throw new ValidationError([{ path: '/job_slug', rule: 'pattern', message: 'must be a kebab-case job slug' }], 'job_slug is not a job slug.');
  const job = jobBySlug(slug);
  if (!job) throw new AppError(404, 'job_not_found', 'No job has this slug; see GET /api/catalog/jobs.', { details: { job_slug: slug } });
  return job;
};

/**
 * Catalog matching and attribution: the ten jobs, the deterministic recommender (its query is
 * never stored or logged: only its length and a keyed hash), the stable match of a job, recording
 * a selection as a handoff, the developer handoff document, partners' signed conversions, the
 * attribution totals, and the operators' partner listing (under /api/operator, so the operator
 * guard checks its credential before routing).
 * @param deps - app dependencies
 * @returns the router
 */
export function catalogMatchRoutes(deps: AppDeps): Router<AppState> {
  const router = createRouter();
  const { dataSource } = deps;
  const secretBox = partnerSecretBox(deps.config.freeTier.callerHashKey);
  const fingerprint = queryFingerprinter(deps.config.freeTier.callerHashKey);
  const requireOperator = operatorCredentialCheck(deps);
  const handoffLimit = createHandoffRateLimit({ redis: deps.redis, prefix: deps.config.redis.queuePrefix });

  router.get('/api/catalog/jobs', async (ctx: AppContext) => {
    const origin = publicOrigin(deps.config, ctx);
    const partners = await listPartners(dataSource);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      matcher_version: MATCHER_VERSION,
      jobs: CATALOG_JOBS.map((job) => ({
        job_slug: job.job_slug,
        title: job.title,
        description: job.description,
        offering_ids: offeringsOfJob(job, partners.filter((p) => p.job_slugs.includes(job.job_slug))).map((o) => o.id),
        keywords: Object.keys(job.keywords),
        match_url: `${origin}${matchPath(job.job_slug)}`,
      })),
    };
  });

  router.get('/api/catalog/recommend', validateQuery(recommendQuerySchema), async (ctx: AppContext) => {
    const { query } = ctx.state.query as { query: string };
    const origin = publicOrigin(deps.config, ctx);
    const matches = recommendJobs(query);
    ctx.state.log.info({ ...fingerprint(query), matches: matches.length }, 'catalog recommend');
    // The answer is derived from the URL: keep it out of shared caches along with the URL.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      matcher_version: MATCHER_VERSION,
      query_length: [...query].length,
      matches: matches.map((m, i) => ({
        rank: i + 1,
        job_slug: m.job.job_slug,
        title: m.job.title,
        score: m.score,
        matched_keywords: m.matched_keywords,
        offerings: m.job.offering_ids.map((id) => presentOffering(offeringById(id)!, origin)),
        match_url: `${origin}${matchPath(m.job.job_slug)}`,
      })),
      jobs_url: `${origin}/api/catalog/jobs`,
    };
  });

  router.get('/api/catalog/match/:job_slug', async (ctx: AppContext) => {
    const job = jobOf(ctx.params.job_slug);
    const origin = publicOrigin(deps.config, ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentJobMatch(job, await partnersForJob(dataSource, job.job_slug), origin);
  });

  router.post('/api/catalog/match', validateBody(matchRequestSchema), async (ctx: AppContext) => {
    const body = ctx.state.body as { job_slug: string; offering_id?: string };
    const job = jobOf(body.job_slug);
    const partners = await partnersForJob(dataSource, job.job_slug);
    const offeringId = body.offering_id ?? job.offering_ids[0];
    const partner = partners.find((p) => p.partner_id === offeringId);
    const offering = job.offering_ids.includes(offeringId) ? offeringById(offeringId) : partner && partnerOffering(partner);
    if (!offering) throw new ValidationError([{ path: '/offering_id', rule: 'enum', message: "must be one of the job's offerings (GET /api/catalog/match/{job_slug})" }]);
    const origin = publicOrigin(deps.config, ctx);
    await handoffLimit.take(callerHashFor(ctx.ip, deps.config.freeTier.callerHashKey), ctx.state.log);
    const handoff = await recordHandoff(dataSource, { jobSlug: job.job_slug, offeringId, partnerId: partner?.partner_id });
    let handoffUrl: string | null = null;
    if (partner) {
      const url = new URL(partner.url);
      url.searchParams.set('handoff_id', handoff.handoff_id);
      handoffUrl = url.toString();
    }
    ctx.status = 201;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ...handoff, offering: presentOffering(offering, origin), match_url: `${origin}${matchPath(job.job_slug)}`, handoff_url: handoffUrl };
  });

  router.post(CONVERSIONS_PATH, async (ctx: AppContext) => {
    const raw = await readRawBody(ctx, deps.config.http.bodyLimitBytes);
    const body = parseConversion(raw);
    const messageId = await verifyConversionSignature(ctx, dataSource, secretBox, raw, body.partner_id);
    const outcome = await recordConversion(dataSource, body.partner_id, messageId, body);
    ctx.state.log.info({ partnerId: body.partner_id, counted: outcome.counted }, 'catalog conversion received');
    ctx.status = outcome.counted ? 201 : 200;
    ctx.body = outcome;
  });

  router.get('/api/catalog/attribution/summary', validateQuery(summaryQuerySchema), async (ctx: AppContext) => {
    const { include } = ctx.state.query as { include?: 'vendors' };
    if (include === 'vendors') await requireOperator(ctx, 'operator');
    const summary = await loadPublicSummary(dataSource);
    ctx.set('Cache-Control', include === 'vendors' ? 'no-store' : 'public, max-age=60');
    ctx.body = include === 'vendors' ? { ...summary, vendors: await loadVendorTotals(dataSource) } : summary;
  });

  for (const path of CATALOG_DOCUMENT_PATHS) {
    router.get(path, async (ctx: AppContext) => {
      const doc = buildCatalogDocument(publicOrigin(deps.config, ctx), await listPartners(dataSource));
      sendCacheable(ctx, jsonDocument(doc, DOCUMENT_MAX_AGE_SECONDS));
    });
  }

  router.post('/api/operator/catalog/partners', validateBody(partnerRequestSchema), async (ctx: AppContext) => {
    const created = await createPartner(dataSource, secretBox, ctx.state.body as PartnerInput, ctx.state.credential?.id);
    ctx.state.log.info({ partnerId: created.partner.partner_id }, 'catalog partner listed');
    ctx.status = 201;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { partner: created.partner, signing_secret: created.signingSecret };
  });

  router.get('/api/operator/catalog/partners', async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { partners: await listPartners(dataSource) };
  });

  return router;
}
