import type Router from '@koa/router';
import type { Next } from 'koa';
import { requireProcessor, type CardProcessor } from '../../shared/cards/stripe-client';
import { AppError } from '../../shared/errors';
import { companyPlan, COMPANY_PLAN } from '../../shared/products';
import type { AppContext, AppState } from '../http/context';
import { createRouter } from '../http/create-router';
import type { AppDeps } from '../http/deps';
import { COMPANY_TOKEN, presentedTokenHash, programTokenRefused } from '../http/program-token';
import { requestOrigin } from '../http/public-origin';
import { validateBody } from '../http/validate';
import { startCompanyCheckout } from './company-checkout';
import { COMPANY_TERMS, COMPANY_TERMS_HASH } from './company-terms';
import { companyCheckoutRequestSchema, companyClaimRequestSchema, type CompanyCheckoutRequest, type CompanyClaimRequest } from './company.schema';
import { activateCompany, findCompanyByTokenHash, type CompanyRow } from './company.store';
import { bundleOutcomeRequestSchema, companyOutcomeRequestSchema, type BundleOutcomeRequest, type CompanyOutcomeRequest } from './outcome.schema';
import { loadEvidence, recordBundleOutcome, recordCompanyOutcome } from './outcome.store';
import { findBundleByTokenHash } from '../payments/bundle-credit/bundle-store';
import { BUNDLE_TOKEN_HEADER, bundleTokenHashFrom, invalidBundleToken } from '../payments/bundle-credit/bundle-token';
import { sponsorshipSlotsUsed } from '../../shared/programs/sponsorship-slots';

// The company a request's token found, kept beside the context rather than on the shared state type.
const companies = new WeakMap<AppContext, CompanyRow>();

/**
 * The company of a request, set by {@link companyTokenGuard}.
 * @param ctx - Koa context
 * @returns the company
 */
export function companyOf(ctx: AppContext): CompanyRow {
  return companies.get(ctx)!;
}

/**
 * The 401 of a token whose company is not active yet: still a 401, with what to do.
 * @returns the error
 */
export function companyTokenInactive(): AppError {
  return new AppError(401, 'program_token_inactive', `This ${COMPANY_TOKEN.header} is not active: its payment has not settled or it was not claimed yet (POST /api/aei/company/claim).`);
}

/**
 * Middleware resolving the company of `X-AEI-COMPANY-TOKEN`. Missing, malformed and unknown
 * tokens are the same 401; with `active`, a company not yet claimed is a 401 too.
 * @param deps - app dependencies
 * @param options - `active`: only an activated company passes
 * @returns the middleware
 */
export function companyTokenGuard(deps: AppDeps, options: { active: boolean }) {
  return async function requireCompanyToken(ctx: AppContext, next: Next): Promise<void> {
    ctx.set('Cache-Control', 'no-store');
    const hash = presentedTokenHash(COMPANY_TOKEN, ctx.get(COMPANY_TOKEN.header));
    const company = await findCompanyByTokenHash(deps.dataSource, hash);
    if (!company) throw programTokenRefused(COMPANY_TOKEN, true);
    if (options.active && company.activatedAt === null) throw companyTokenInactive();
    companies.set(ctx, company);
    await next();
  };
}

function presentPeriod(company: CompanyRow, now: Date) {
  const starts = company.activatedAt as Date;
  const ends = company.periodEndsAt as Date;
  return { starts_at: starts.toISOString(), ends_at: ends.toISOString(), days: company.periodDays, ended: now >= ends };
}

/**
 * What a company has used and has left, per allowance, in its period.
 * @param company - an active company
 * @param now - the time of the reading
 * @param sponsorsLinked - pilot sponsors linked to the company
 * @returns the usage body
 */
export function presentUsage(company: CompanyRow, now: Date, sponsorsLinked: number) {
  const period = presentPeriod(company, now);
  const guideLeft = period.ended ? 0 : company.guideCallsTotal - company.guideCallsUsed;
  return {
    period,
    allowances: {
      guide_calls: { total: company.guideCallsTotal, used: company.guideCallsUsed, left: guideLeft },
      embedded_check_credits: { total: company.creditsTotal, used: company.creditsTotal - company.creditsRemaining, left: company.creditsRemaining },
      pilot_sponsorship_slots: { total: company.sponsorshipSlots, used: sponsorsLinked, left: Math.max(0, company.sponsorshipSlots - sponsorsLinked) },
    },
    // What an operator needs to link the company's sponsored agents to its slots.
    company_id: company.id,
  };
}

/**
 * The company program: terms, the card checkout that buys it, the claim that activates the token,
 * and its usage.
 * @param deps - app dependencies
 * @param stripe - the card processor client (undefined when card payments are off)
 * @returns the router
 */
export function companyRoutes(deps: AppDeps, stripe: CardProcessor): Router<AppState> {
  const router = createRouter();
  const ds = deps.dataSource;

  router.get('/api/aei/company/terms', async (ctx: AppContext) => {
    ctx.body = { ...COMPANY_TERMS, content_hash: COMPANY_TERMS_HASH };
  });

  router.post('/api/aei/company/checkout', validateBody(companyCheckoutRequestSchema), async (ctx: AppContext) => {
    const body = ctx.state.body as CompanyCheckoutRequest;
    const plan = companyPlan(body.plan ?? COMPANY_PLAN.id) ?? COMPANY_PLAN;
    const processor = requireProcessor(stripe);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 201;
    ctx.body = await startCompanyCheckout(ds, processor, plan, requestOrigin(deps.config.payments, ctx), ctx.state.log);
  });

  router.post('/api/aei/company/claim', validateBody(companyClaimRequestSchema), companyTokenGuard(deps, { active: false }), async (ctx: AppContext) => {
    const body = ctx.state.body as CompanyClaimRequest;
    const company = companyOf(ctx);
    if (body.terms_version !== COMPANY_TERMS.version || body.terms_hash !== COMPANY_TERMS_HASH) {
      const path = body.terms_version !== COMPANY_TERMS.version ? '/terms_version' : '/terms_hash';
      throw new AppError(422, 'terms_not_current', `Accept the current terms: version ${COMPANY_TERMS.version} with its content_hash from GET /api/aei/company/terms.`, {
        details: { fields: [{ path, rule: 'const', message: 'is not the current terms' }], current: { version: COMPANY_TERMS.version, content_hash: COMPANY_TERMS_HASH } },
      });
    }
    if (company.activatedAt === null && company.paymentStatus !== 'paid') {
      const failed = company.paymentStatus === 'failed';
      throw new AppError(
        409,
        failed ? 'payment_failed' : 'payment_not_settled',
        failed
          ? 'The payment for this company failed or its checkout expired; nothing was charged and the token stays inactive. Start a new checkout.'
          : 'The payment has not settled yet; the token stays inactive. Claim again once the checkout is paid.',
        { details: { payment_status: company.paymentStatus } },
      );
    }
    const active = company.activatedAt ? company : await activateCompany(ds, company.id, { version: COMPANY_TERMS.version, hash: COMPANY_TERMS_HASH });
    if (active.activatedAt === null) throw new AppError(409, 'payment_not_settled', 'The payment has not settled yet; the token stays inactive.');
    if (!company.activatedAt) ctx.state.log.info({ companyId: company.id }, 'company activated');
    ctx.body = {
      status: 'active',
      activated_at: (active.activatedAt as Date).toISOString(),
      terms: { version: active.termsVersion, content_hash: active.termsHash },
      period: presentPeriod(active, new Date()),
      allowances: COMPANY_TERMS.allowances,
    };
  });

  router.get('/api/aei/company/usage', companyTokenGuard(deps, { active: true }), async (ctx: AppContext) => {
    const company = companyOf(ctx);
    ctx.body = presentUsage(company, new Date(), await sponsorshipSlotsUsed(ds, company.id));
  });

  router.post('/api/aei/company/outcome', validateBody(companyOutcomeRequestSchema), companyTokenGuard(deps, { active: true }), async (ctx: AppContext) => {
    const report = ctx.state.body as CompanyOutcomeRequest;
    const today = new Date().toISOString().slice(0, 10);
    const bad = report.period.start > report.period.end ? '/period/start' : report.period.end > today ? '/period/end' : undefined;
    if (bad) {
      throw new AppError(422, 'validation_failed', 'The period must start on or before its end, and end no later than today (UTC).', {
        details: { fields: [{ path: bad, rule: 'period', message: bad === '/period/start' ? 'is after the end' : 'is in the future' }] },
      });
    }
    const id = await recordCompanyOutcome(ds, companyOf(ctx).id, report);
    ctx.status = 201;
    ctx.body = { outcome_id: id, uplift: Math.round((report.after.rate - report.before.rate) * 10_000) / 10_000 };
  });

  const bundles = new WeakMap<AppContext, string>();
  const requireBundle = async function requireBundleToken(ctx: AppContext, next: Next): Promise<void> {
    ctx.set('Cache-Control', 'no-store');
    const bundle = await findBundleByTokenHash(ds, bundleTokenHashFrom(ctx.get(BUNDLE_TOKEN_HEADER)));
    if (!bundle) throw invalidBundleToken();
    bundles.set(ctx, bundle.id);
    await next();
  };

  router.post('/api/aei/outcome', validateBody(bundleOutcomeRequestSchema), requireBundle, async (ctx: AppContext) => {
    const report = ctx.state.body as BundleOutcomeRequest;
    const id = await recordBundleOutcome(ds, bundles.get(ctx)!, report);
    ctx.status = 201;
    ctx.body = { outcome_id: id, uplift: Math.round((report.eq_score_after - report.eq_score_before) * 100) / 100 };
  });

  // Guarded before routing by the operator credential, as every path under /api/operator.
  router.get('/api/operator/aei-evidence', async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await loadEvidence(ds);
  });

  return router;
}
