import type Stripe from 'stripe';
import type { DataSource } from 'typeorm';
import { COMPANY_CHECKOUT_KIND } from '../../shared/cards/apply-event';
import { attachCheckoutSession } from '../../shared/cards/card-store';
import { UpstreamError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { CompanyPlan } from '../../shared/products';
import { hashBundleToken, newBundleToken } from '../payments/bundle-credit/bundle-token';
import { COMPANY_TOKEN, hashProgramToken, mintProgramToken } from '../http/program-token';
import { COMPANY_TERMS, COMPANY_TERMS_HASH } from './company-terms';
import { createPendingCompany, discardPendingCompany } from './company.store';

function sessionParams(plan: CompanyPlan, origin: string, purchaseId: string, bundleId: string): Stripe.Checkout.SessionCreateParams {
  // The card webhook grants on this metadata: the kind picks the company plan as the price to check.
  const metadata = { kind: COMPANY_CHECKOUT_KIND, purchase_id: purchaseId, bundle_id: bundleId, pack: plan.id, auto_refill: 'false' };
  return {
    mode: 'payment',
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: plan.currency,
          unit_amount: plan.amountCents,
          product_data: { name: `humanlike company program: ${plan.periodDays} days, ${plan.guideCalls} guide calls, ${plan.credits} embedded-check credits` },
        },
      },
    ],
    client_reference_id: purchaseId,
    metadata,
    payment_intent_data: { metadata },
    // The card packs' return pages show the purchase's state; never a token in these URLs.
    success_url: `${origin}/api/card/checkout/complete?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${origin}/api/card/checkout/cancelled?session_id={CHECKOUT_SESSION_ID}`,
  };
}

/**
 * Starts a company's purchase: the company (inactive, under its token's hash), its card bundle and
 * a pending purchase priced from the plan, then the processor's hosted checkout with the purchase's
 * own idempotency key. If the processor refuses or cannot be reached, all of it is removed.
 * @param db - DataSource
 * @param stripe - the processor client
 * @param plan - the company plan from the catalog
 * @param origin - this service's public origin (the return pages)
 * @param log - request logger
 * @returns the 201 body, with both tokens shown this once
 * @throws UpstreamError card_processor_error when the session cannot be created
 */
export async function startCompanyCheckout(db: DataSource, stripe: Stripe, plan: CompanyPlan, origin: string, log: Logger): Promise<Record<string, unknown>> {
  const companyToken = mintProgramToken(COMPANY_TOKEN);
  const bundleToken = newBundleToken();
  const created = await db.transaction((tx) =>
    createPendingCompany(tx, { plan, companyTokenHash: hashProgramToken(companyToken), bundleTokenHash: hashBundleToken(bundleToken) }),
  );
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.create(sessionParams(plan, origin, created.purchase.id, created.bundleId), { idempotencyKey: `company-checkout-${created.purchase.id}` });
  } catch (err) {
    await discardPendingCompany(db, created);
    log.error({ err, companyId: created.companyId }, 'company checkout session not created');
    throw new UpstreamError('card_processor_error', 'The card processor did not create the checkout; nothing was created or charged, try again.', err);
  }
  await attachCheckoutSession(db, created.purchase.id, session.id);
  log.info({ companyId: created.companyId, purchaseId: created.purchase.id, sessionId: session.id }, 'company checkout started');
  return {
    checkout_url: session.url,
    checkout_session_id: session.id,
    company_token: companyToken,
    bundle_token: bundleToken,
    token_note:
      `Both tokens are shown this once and stored only as hashes. company_token goes in ${COMPANY_TOKEN.header}; it is inactive until the ` +
      'payment settles and you claim it (POST /api/aei/company/claim). bundle_token (X-BUNDLE-TOKEN) holds the embedded-check credits once the payment settles.',
    plan: plan.id,
    price: COMPANY_TERMS.price,
    allowances: COMPANY_TERMS.allowances,
    terms: { version: COMPANY_TERMS.version, content_hash: COMPANY_TERMS_HASH },
    status: 'pending',
    expires_at: session.expires_at ? new Date(session.expires_at * 1000).toISOString() : null,
  };
}
