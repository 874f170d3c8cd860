import type Router from '@koa/router';
import { AGENT_PLAN_PRODUCT } from '../../../shared/catalog/agent-plans';
import { AppError, ValidationError } from '../../../shared/errors';
import { getAuthorization } from '../../../shared/payments/authorization-store';
import { canonicalHash } from '../../../shared/payments/canonical-hash';
import type { AppContext, AppState } from '../../http/context';
import { createRouter } from '../../http/create-router';
import type { AppDeps } from '../../http/deps';
import { validateBody } from '../../http/validate';
import { chargeFor, type Charge } from '../../payments/charge';
import { carriesPayment, pay } from '../../payments/pay';
import { isPayerClaim } from '../../payments/payer-claim';
import { getInstallPlan } from './plan-activation';
import { activateAndPresent, TOKEN_CLAIM_NOTE } from './plan-delivery';
import { newQuoteSchema, payQuoteSchema, PLAN_CLAIM_HEADER, PLAN_CLAIM_SUBJECT, renewalQuoteSchema, retryActivationSchema, upgradeQuoteSchema, type QuoteRequest } from './plans.schema';
import { paymentPath, presentAgentCatalog, presentQuote, presentQuoteStatus } from './present-plans';
import { quotePlan } from './plan-quote';
import { bindQuote, getQuote, type QuoteKind, type QuoteRow } from './quote-store';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function quoteIdParam(ctx: AppContext): string {
  const id = String(ctx.params.quote_id ?? '');
  if (!UUID.test(id)) throw new ValidationError([{ path: 'path:quote_id', rule: 'format', message: 'must be a uuid' }]);
  return id.toLowerCase();
}

// The charge of a quote: the catalog entry's, at the quote's own amount (a renewal or an upgrade
// is priced from the live catalog when quoted, and a payment must match what was quoted).
function quoteCharge(quote: QuoteRow): Charge {
  const base = chargeFor(AGENT_PLAN_PRODUCT, quote.planId);
  return {
    ...base,
    price: { usdcUnits: quote.amountUsdcUnits, lamports: quote.amountLamports },
    description: `${quote.kind === 'new' ? 'New plan' : quote.kind === 'renewal' ? 'Renewal' : 'Upgrade'} ${quote.planId}: ${quote.credits} embedded-check credits for install ${quote.workflowId}.`,
  };
}

/**
 * Plans an agent buys for a verified install: the live catalog, quotes (new, renewal, upgrade),
 * paying a quote through the one payment pipeline, its status, and finishing an activation that
 * failed after settlement without charging again.
 * @param deps - app dependencies
 * @returns the router
 */
export function planRoutes(deps: AppDeps): Router<AppState> {
  const router = createRouter();
  const { dataSource } = deps;

  router.get('/api/catalog/agent/catalog', async function readAgentCatalog(ctx: AppContext) {
    ctx.body = presentAgentCatalog();
  });

  const quoteFor = (kind: QuoteKind) =>
    async function createPlanQuote(ctx: AppContext) {
      const quote = await quotePlan(dataSource, kind, ctx.state.body as QuoteRequest);
      ctx.status = 201;
      ctx.set('Location', paymentPath(quote.id));
      ctx.body = presentQuote(quote);
    };

  router.post('/api/catalog/agent/quotes', validateBody(newQuoteSchema), quoteFor('new'));
  router.post('/api/catalog/agent/renewals', validateBody(renewalQuoteSchema), quoteFor('renewal'));
  router.post('/api/catalog/agent/upgrades', validateBody(upgradeQuoteSchema), quoteFor('upgrade'));

  async function loadQuote(ctx: AppContext): Promise<QuoteRow> {
    const quote = await getQuote(dataSource, quoteIdParam(ctx));
    if (!quote) throw new AppError(404, 'quote_not_found', 'No quote has this id.');
    return quote;
  }

  router.post('/api/catalog/agent/payments/:quote_id', validateBody(payQuoteSchema), async function payQuote(ctx: AppContext) {
    const quote = await loadQuote(ctx);
    // Decided before any payment is read: an expired quote is never paid.
    if (!quote.authorizationId && quote.expiresAt.getTime() <= Date.now()) {
      throw new AppError(410, 'quote_expired', 'This quote expired before it was paid; nothing was charged. Ask for a new quote.', {
        details: { expired_at: quote.expiresAt.toISOString() },
      });
    }
    if (quote.authorizationId && !carriesPayment(ctx, deps)) {
      throw new AppError(409, 'quote_already_paid', 'This quote was paid already; GET its status (a lost answer is retried with the same payment, never a new one).', {
        details: { status: paymentPath(quote.id) },
      });
    }
    const claim = ctx.get(PLAN_CLAIM_HEADER);
    const log = ctx.state.log;
    await pay(
      ctx,
      deps,
      {
        charge: quoteCharge(quote),
        wallet: quote.wallet,
        requestHash: canonicalHash({ path: paymentPath(quote.id) }),
        // After settlement only: the activation, and the token to the request that paid.
        onDelivery: async (authorization, delivery) => {
          const mayShowToken = delivery.first || (await isPayerClaim(PLAN_CLAIM_SUBJECT, authorization, claim, deps.config.payments.evmRpcUrl));
          return { activation: await activateAndPresent(deps, quote.id, authorization, mayShowToken, log) };
        },
        nonFinalNote: { activation_note: 'The plan is activated after the payment settles; a lost answer is retried with the same payment, never a new one.' },
      },
      async (paid) => {
        if (paid.authorizationId === null) throw new Error('a plan quote is paid per call only');
        // One quote, one payment: another authorization is refused here and released uncharged.
        if (!(await bindQuote(dataSource, quote.id, paid.authorizationId))) {
          throw new AppError(409, 'quote_already_paid', 'This quote was paid with another payment; nothing was charged for this one.');
        }
        return {
          response: { quote_id: quote.id, kind: quote.kind, workflow_id: quote.workflowId, plan_id: quote.planId, credits: quote.credits, status: paymentPath(quote.id) },
          summary: { profile: null, score: null, passed: null, scorerVersion: 'none', referralCode: null },
          calibrationText: null,
        };
      },
    );
  });

  router.get('/api/catalog/agent/payments/:quote_id', async function readQuoteStatus(ctx: AppContext) {
    const quote = await loadQuote(ctx);
    const authorization = quote.authorizationId ? await getAuthorization(dataSource, quote.authorizationId) : undefined;
    ctx.body = presentQuoteStatus(quote, authorization && { status: authorization.status, transaction: authorization.transaction }, await getInstallPlan(dataSource, quote.workflowId));
  });

  router.post('/api/catalog/agent/payments/:quote_id/retry-activation', validateBody(retryActivationSchema), async function retryActivation(ctx: AppContext) {
    const quote = await loadQuote(ctx);
    const authorization = quote.authorizationId ? await getAuthorization(dataSource, quote.authorizationId) : undefined;
    if (!authorization) throw new AppError(409, 'quote_not_paid', 'This quote has no payment yet; pay it first.');
    if (authorization.status !== 'settled') {
      throw new AppError(409, 'payment_not_settled', 'The payment has not settled; retry the payment itself with the same authorization.', { details: { payment_status: authorization.status } });
    }
    const mayShowToken = await isPayerClaim(PLAN_CLAIM_SUBJECT, authorization, ctx.get(PLAN_CLAIM_HEADER), deps.config.payments.evmRpcUrl);
    const activation = await activateAndPresent(deps, quote.id, authorization, mayShowToken, ctx.state.log);
    ctx.body = { quote_id: quote.id, payment: { status: authorization.status, transaction: authorization.transaction }, activation, ...(mayShowToken ? {} : { token_note: TOKEN_CLAIM_NOTE }) };
  });

  return router;
}
