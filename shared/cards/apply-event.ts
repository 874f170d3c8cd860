import type Stripe from 'stripe';
import type { DataSource } from 'typeorm';
import type { Logger } from '../logger';
import { cardPack, companyPlan } from '../products';
import {
  failCardPurchase,
  failRenewalCharge,
  getCardPurchase,
  getCardRenewal,
  grantCheckout,
  grantRenewal,
  markCardEventProcessed,
  storeCardEvent,
  type EventSource,
} from './card-store';

/** Metadata `kind` of the checkout sessions this service creates. */
export const CHECKOUT_KIND = 'card_pack';

/**
 * Metadata `kind` of the company program's checkout sessions: the same purchase, grant and event
 * rows as a pack, priced from the company plan instead of the packs.
 */
export const COMPANY_CHECKOUT_KIND = 'aei_company';

/** Metadata `kind` of the renewal payment intents this service creates. */
export const RENEWAL_KIND = 'card_renewal';

/** The event types this service acts on (the reconciler lists only these). */
export const HANDLED_EVENT_TYPES = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
] as const;

/**
 * What applying an event did: `granted`; `already_granted` (a duplicate, reordered or late
 * delivery of a paid object); `amount_mismatch` (nothing granted, logged for an operator);
 * `awaiting_payment` (a completed checkout whose payment has not settled); `purchase_failed`;
 * `renewal_failed`; `unknown_purchase` and `ignored` (not ours, or nothing to do).
 */
export type CardEventOutcome =
  | 'granted'
  | 'already_granted'
  | 'amount_mismatch'
  | 'awaiting_payment'
  | 'purchase_failed'
  | 'renewal_failed'
  | 'unknown_purchase'
  | 'ignored';

/** What applying events needs. */
export interface CardEventDeps {
  dataSource: DataSource;
  stripe: Stripe;
  log: Logger;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Metadata is ours, but an event from another integration on the same account may carry anything:
// only a well-formed id is looked up (a database fault must fail the delivery, not be read as "unknown").
function uuidOf(value: string | undefined): string | undefined {
  return value !== undefined && UUID.test(value) ? value : undefined;
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

type CheckoutKind = typeof CHECKOUT_KIND | typeof COMPANY_CHECKOUT_KIND;

// What a checkout of each kind may sell: a pack session can never be paid for as the company plan,
// nor the reverse, since each kind looks its id up in its own part of the catalog.
function catalogEntry(kind: CheckoutKind, id: string): { amountCents: number; currency: string } | undefined {
  return kind === COMPANY_CHECKOUT_KIND ? companyPlan(id) : cardPack(id);
}

function checkoutKindOf(session: Stripe.Checkout.Session): CheckoutKind | undefined {
  const kind = session.metadata?.kind;
  return kind === CHECKOUT_KIND || kind === COMPANY_CHECKOUT_KIND ? kind : undefined;
}

// Checked against the purchase (priced from the catalog when it was made) and against the catalog
// itself: a payment of another amount or currency buys nothing, whatever its metadata says.
function matchesPack(
  packId: string,
  expected: { amountCents: number; currency: string },
  paid: { amount: number | null; currency: string | null },
  kind: CheckoutKind = CHECKOUT_KIND,
): boolean {
  const pack = catalogEntry(kind, packId);
  return (
    pack !== undefined &&
    pack.amountCents === expected.amountCents &&
    pack.currency === expected.currency &&
    paid.amount === expected.amountCents &&
    (paid.currency ?? '').toLowerCase() === expected.currency
  );
}

async function applyCheckoutPaid(deps: CardEventDeps, session: Stripe.Checkout.Session, eventId: string | null, kind: CheckoutKind): Promise<CardEventOutcome> {
  const { dataSource, log } = deps;
  if (session.payment_status !== 'paid') return 'awaiting_payment';
  const purchaseId = uuidOf(session.metadata?.purchase_id);
  const purchase = purchaseId ? await getCardPurchase(dataSource, purchaseId) : undefined;
  const fields = { sessionId: session.id, purchaseId: purchase?.id, pack: purchase?.pack };
  if (!purchase) {
    log.warn(fields, 'card checkout for no known purchase; nothing granted');
    return 'unknown_purchase';
  }
  const samePurchase = (purchase.checkoutSessionId === null || purchase.checkoutSessionId === session.id) && session.metadata?.pack === purchase.pack;
  if (!samePurchase || !matchesPack(purchase.pack, purchase, { amount: session.amount_total, currency: session.currency }, kind)) {
    // For an operator: a payment whose amount, currency or pack is not what was sold.
    log.error(
      { ...fields, operatorAction: 'review card payment', expected: { amount: purchase.amountCents, currency: purchase.currency }, received: { amount: session.amount_total, currency: session.currency, pack: session.metadata?.pack } },
      'card payment does not match its pack; nothing granted',
    );
    return 'amount_mismatch';
  }
  let renewal: { customerId: string; paymentMethodId: string } | undefined;
  if (purchase.autoRefill) {
    const intentId = idOf(session.payment_intent);
    const intent = intentId ? await deps.stripe.paymentIntents.retrieve(intentId) : undefined;
    const customerId = idOf(session.customer) ?? idOf(intent?.customer);
    const paymentMethodId = idOf(intent?.payment_method);
    if (customerId && paymentMethodId) renewal = { customerId, paymentMethodId };
    else log.error({ ...fields, operatorAction: 'set up renewal' }, 'auto-refill checkout saved no card; credits granted, no renewal');
  }
  const outcome = await grantCheckout(dataSource, purchase, { objectId: session.id, amountCents: purchase.amountCents, currency: purchase.currency, eventId }, renewal);
  if (outcome === 'granted') log.info({ ...fields, kind, credits: purchase.credits, renewal: renewal !== undefined }, 'card pack granted');
  return outcome;
}

/**
 * Grants a renewal's settled payment intent (from its webhook, the reconciler, or the renewal job's
 * own answer), once per payment intent, after checking it against the renewal and the catalog.
 * @param deps - DataSource, Stripe client, logger
 * @param intent - a succeeded payment intent with renewal metadata
 * @param eventId - the event that reported it, if any
 * @returns what it did
 */
export async function applyRenewalPayment(deps: CardEventDeps, intent: Stripe.PaymentIntent, eventId: string | null): Promise<CardEventOutcome> {
  const { dataSource, log } = deps;
  if (intent.metadata?.kind !== RENEWAL_KIND || intent.status !== 'succeeded') return 'ignored';
  const renewalId = uuidOf(intent.metadata.renewal_id);
  const renewal = renewalId ? await getCardRenewal(dataSource, renewalId) : undefined;
  const period = Number(intent.metadata.period);
  const fields = { paymentIntentId: intent.id, renewalId: renewal?.id, period };
  if (!renewal || !Number.isInteger(period) || period < 1) {
    log.warn(fields, 'renewal payment for no known renewal; nothing granted');
    return 'unknown_purchase';
  }
  if (intent.metadata.pack !== renewal.pack || !matchesPack(renewal.pack, renewal, { amount: intent.amount_received ?? intent.amount, currency: intent.currency })) {
    log.error(
      { ...fields, operatorAction: 'review card payment', expected: { amount: renewal.amountCents, currency: renewal.currency }, received: { amount: intent.amount_received ?? intent.amount, currency: intent.currency } },
      'card renewal does not match its pack; nothing granted',
    );
    return 'amount_mismatch';
  }
  const outcome = await grantRenewal(dataSource, renewal, period, { objectId: intent.id, amountCents: renewal.amountCents, currency: renewal.currency, eventId });
  if (outcome === 'granted') log.info({ ...fields, credits: renewal.credits }, 'card renewal granted');
  return outcome;
}

async function handle(deps: CardEventDeps, event: Stripe.Event): Promise<CardEventOutcome> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      const kind = checkoutKindOf(session);
      if (!kind) return 'ignored';
      return applyCheckoutPaid(deps, session, event.id, kind);
    }
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const session = event.data.object;
      if (!checkoutKindOf(session)) return 'ignored';
      const purchaseId = uuidOf(session.metadata?.purchase_id);
      const failed = purchaseId ? await failCardPurchase(deps.dataSource, purchaseId) : false;
      return failed ? 'purchase_failed' : 'ignored';
    }
    case 'payment_intent.succeeded':
      return applyRenewalPayment(deps, event.data.object, event.id);
    case 'payment_intent.payment_failed': {
      const intent = event.data.object;
      if (intent.metadata?.kind !== RENEWAL_KIND) return 'ignored';
      const period = Number(intent.metadata.period);
      const renewalId = uuidOf(intent.metadata.renewal_id);
      if (!renewalId || !Number.isInteger(period)) return 'ignored';
      await failRenewalCharge(deps.dataSource, renewalId, period, { code: intent.last_payment_error?.code ?? 'payment_failed', paymentIntentId: intent.id });
      return 'renewal_failed';
    }
    default:
      return 'ignored';
  }
}

/**
 * Applies one processor event, verified (a webhook whose signature the SDK checked) or read from
 * the processor's API (the reconciler). The event is stored first; an event already applied is not
 * applied again. Grants are keyed on the object paid for (unique in the database), so duplicate,
 * reordered or late deliveries, a reconciler that finds the same payment, or a crash between
 * storing and applying (the next delivery applies it) grant exactly once.
 * @param deps - DataSource, Stripe client, logger
 * @param event - the event
 * @param via - webhook or reconciler
 * @returns what it did (`duplicate` when the event was applied before)
 */
export async function applyCardEvent(deps: CardEventDeps, event: Stripe.Event, via: EventSource): Promise<CardEventOutcome | 'duplicate'> {
  const objectId = idOf((event.data?.object ?? null) as { id: string } | null);
  const stored = await storeCardEvent(deps.dataSource, { id: event.id, type: event.type, objectId }, via);
  if (stored.processed) return 'duplicate';
  const outcome = await handle(deps, event);
  await markCardEventProcessed(deps.dataSource, event.id, outcome);
  return outcome;
}
