import type Stripe from 'stripe';
import type { DataSource } from 'typeorm';
import { CHECKOUT_KIND } from '../../shared/cards/apply-event';
import { attachCheckoutSession, createCardBundle, createCardPurchase, discardCardPurchase } from '../../shared/cards/card-store';
import { AppError, UpstreamError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { cardPack, type CardPack } from '../../shared/products';
import { hashBundleToken, newBundleToken } from '../payments/bundle-credit/bundle-token';
import { displayPrice } from './present-packs';

/** What a checkout asks for, after validation. */
export interface CheckoutInput {
  pack: string;
  autoRefill: boolean;
  /** The bundle to top up (from X-BUNDLE-TOKEN), or undefined for a new bundle. */
  bundleId?: string;
  /** The public origin of this service: the processor sends the buyer back to its return pages. */
  origin: string;
}

function sessionParams(pack: CardPack, input: CheckoutInput, purchaseId: string, bundleId: string): Stripe.Checkout.SessionCreateParams {
  const metadata = { kind: CHECKOUT_KIND, purchase_id: purchaseId, bundle_id: bundleId, pack: pack.id, auto_refill: String(input.autoRefill) };
  return {
    mode: 'payment',
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: pack.currency,
          unit_amount: pack.amountCents,
          product_data: { name: `humanlike ${pack.id} pack: ${pack.credits} basic-score credits${input.autoRefill ? ', renewed monthly' : ''}` },
        },
      },
    ],
    client_reference_id: purchaseId,
    metadata,
    // Renewals charge the card saved here, off-session, from this service's own monthly job.
    payment_intent_data: input.autoRefill ? { setup_future_usage: 'off_session', metadata } : { metadata },
    ...(input.autoRefill ? { customer_creation: 'always' as const } : {}),
    // Never the bundle token: these URLs reach the processor, the browser's history and logs.
    success_url: `${input.origin}/api/card/checkout/complete?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${input.origin}/api/card/checkout/cancelled?session_id={CHECKOUT_SESSION_ID}`,
  };
}

/**
 * Starts a card checkout: a new card bundle (unless topping one up) and a pending purchase priced
 * from the catalog, then the processor's hosted checkout session for it, created with the
 * purchase's own idempotency key. If the processor refuses or cannot be reached, what was created is
 * removed and nothing is left pending.
 * @param db - DataSource
 * @param stripe - the processor client
 * @param input - pack, auto-refill, bundle to top up, origin
 * @param log - request logger
 * @returns the response body (201)
 * @throws UpstreamError card_processor_error when the session cannot be created
 */
export async function startCheckout(db: DataSource, stripe: Stripe, input: CheckoutInput, log: Logger): Promise<Record<string, unknown>> {
  const pack = cardPack(input.pack);
  if (!pack) throw new AppError(422, 'validation_failed', 'Unknown pack.', { details: { fields: [{ path: '/pack', rule: 'enum', message: 'is not a pack' }] } });
  const token = input.bundleId ? undefined : newBundleToken();
  const { bundleId, purchase } = await db.transaction(async (tx) => {
    const id = input.bundleId ?? (await createCardBundle(tx, hashBundleToken(token as string)));
    return { bundleId: id, purchase: await createCardPurchase(tx, { bundleId: id, pack, autoRefill: input.autoRefill }) };
  });
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.create(sessionParams(pack, input, purchase.id, bundleId), { idempotencyKey: `card-checkout-${purchase.id}` });
  } catch (err) {
    await discardCardPurchase(db, purchase.id, token ? bundleId : undefined);
    log.error({ err, purchaseId: purchase.id }, 'card checkout session not created');
    throw new UpstreamError('card_processor_error', 'The card processor did not create the checkout; nothing was created or charged, try again.', err);
  }
  await attachCheckoutSession(db, purchase.id, session.id);
  log.info({ purchaseId: purchase.id, bundleId, pack: pack.id, autoRefill: input.autoRefill, sessionId: session.id, topUp: token === undefined }, 'card checkout started');
  return {
    checkout_url: session.url,
    checkout_session_id: session.id,
    purchase_id: purchase.id,
    bundle_id: bundleId,
    bundle_token: token ?? null,
    token_note: token
      ? 'bundle_token is shown this once and stored only as a hash: keep it secret. It spends the credits (X-BUNDLE-TOKEN, basic tier) and reads the balance; credits arrive when the payment settles.'
      : 'Top-up: the credits go to the bundle of the X-BUNDLE-TOKEN you sent, whose token stays the same.',
    pack: pack.id,
    price: { amount_cents: pack.amountCents, currency: pack.currency, display: displayPrice(pack.amountCents, pack.currency) },
    credits: pack.credits,
    auto_refill: input.autoRefill,
    status: 'pending',
    expires_at: session.expires_at ? new Date(session.expires_at * 1000).toISOString() : null,
  };
}
