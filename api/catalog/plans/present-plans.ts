import { AGENT_PLANS, QUOTE_TTL_SECONDS } from '../../../shared/catalog/agent-plans';
import { maskIdentifier } from '../../../shared/payments/mask';
import type { InstallPlan } from './plan-activation';
import type { QuoteRow } from './quote-store';

/** Where a quote is paid and read. */
export const paymentPath = (quoteId: string) => `/api/catalog/agent/payments/${quoteId}`;

/**
 * The plans an agent can buy, from the live catalog.
 * @returns the catalog body
 */
export function presentAgentCatalog(): Record<string, unknown> {
  return {
    plans: AGENT_PLANS.map((p) => ({
      plan_id: p.id,
      name: p.name,
      credits: p.credits,
      period_days: p.periodDays,
      price_usdc_units: p.price.usdcUnits,
      price_lamports: p.price.lamports,
      terms: `${p.credits} embedded-check credits (one per accepted check at POST /api/embed/check) on the install's plan bundle, for ${p.periodDays} days; credits already granted stay when the period ends.`,
    })),
    requires: 'A verified install: the workflow_id of a free install workflow whose state is verified.',
    quote_ttl_seconds: QUOTE_TTL_SECONDS,
    quotes: {
      new: { method: 'POST', path: '/api/catalog/agent/quotes', body: ['workflow_id', 'plan_id', 'wallet_address'] },
      renewal: { method: 'POST', path: '/api/catalog/agent/renewals', body: ['workflow_id', 'wallet_address'] },
      upgrade: { method: 'POST', path: '/api/catalog/agent/upgrades', body: ['workflow_id', 'plan_id', 'wallet_address'] },
    },
    payment: 'POST /api/catalog/agent/payments/{quote_id} with no payment header answers the x402 challenge (402); sign it and send PAYMENT-SIGNATURE (x402 v2) or X-PAYMENT (legacy).',
  };
}

/**
 * A quote as its creation answers it.
 * @param quote - the quote
 * @returns the body
 */
export function presentQuote(quote: QuoteRow): Record<string, unknown> {
  return {
    quote_id: quote.id,
    kind: quote.kind,
    workflow_id: quote.workflowId,
    plan_id: quote.planId,
    ...(quote.fromPlanId ? { from_plan_id: quote.fromPlanId } : {}),
    amount: { usdc_units: quote.amountUsdcUnits, lamports: quote.amountLamports },
    credits: quote.credits,
    period_days: quote.periodDays,
    wallet: maskIdentifier(quote.wallet),
    expires_at: quote.expiresAt.toISOString(),
    pay: { method: 'POST', path: paymentPath(quote.id) },
  };
}

/**
 * The status of a quote's payment and activation.
 * @param quote - the quote
 * @param payment - the authorization's status and transaction, when one is bound
 * @param plan - the install's plan, when there is one
 * @returns the body
 */
export function presentQuoteStatus(
  quote: QuoteRow,
  payment: { status: string; transaction: string | null } | undefined,
  plan: InstallPlan | undefined,
): Record<string, unknown> {
  const expired = !quote.authorizationId && quote.expiresAt.getTime() <= Date.now();
  return {
    ...presentQuote(quote),
    payment: payment ? { status: payment.status, transaction: payment.transaction } : { status: expired ? 'expired' : 'unpaid', transaction: null },
    activation: presentActivationState(quote, plan),
  };
}

/**
 * A quote's activation, as every answer shows it.
 * @param quote - the quote
 * @param plan - the install's plan after the activation, when there is one
 * @returns the activation block
 */
export function presentActivationState(quote: QuoteRow, plan: InstallPlan | undefined): Record<string, unknown> {
  const retry = { method: 'POST', path: `${paymentPath(quote.id)}/retry-activation` };
  if (quote.activationStatus === 'active' && plan) {
    return {
      status: 'active',
      activated_at: quote.activatedAt?.toISOString() ?? null,
      plan_id: plan.planId,
      bundle_id: plan.bundleId,
      period_ends_at: plan.periodEndsAt.toISOString(),
      credits: quote.credits,
    };
  }
  if (quote.activationStatus === 'failed') return { status: 'failed', error: quote.activationError, retry };
  return { status: quote.authorizationId ? 'pending' : 'not_paid' };
}
