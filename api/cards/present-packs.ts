import { CARD_PACKS, CARD_RENEWAL_TERMS, PRODUCTS, type CardPack } from '../../shared/products';

/** Path of the checkout. */
export const CHECKOUT_PATH = '/api/card/checkout';

/** Path of the renewal cancellation. */
export const CANCEL_PATH = '/api/card/renewal/cancel';

// The basic session's list price in cents: 50,000 USDC units (6 decimals) are 5 cents.
const BASIC_LIST_CENTS = PRODUCTS.simulate.tiers.basic.price.usdcUnits / 10_000;

/**
 * A price for people.
 * @param amountCents - minor units
 * @param currency - ISO code, lowercase
 * @returns e.g. `$5.00`
 */
export function displayPrice(amountCents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amountCents / 100);
}

/**
 * One pack as `GET /api/card/packs` quotes it.
 * @param pack - the catalog entry
 * @returns the quote
 */
export function presentPack(pack: CardPack): Record<string, unknown> {
  return {
    id: pack.id,
    price: { amount_cents: pack.amountCents, currency: pack.currency, display: displayPrice(pack.amountCents, pack.currency) },
    credits: pack.credits,
    discount_pct: pack.discountPct,
    list_value_cents: Math.round(pack.credits * BASIC_LIST_CENTS),
    cents_per_credit: Math.round((pack.amountCents / pack.credits) * 10_000) / 10_000,
    terms: {
      one_time: { auto_refill: false, payments: 1, grants: `${pack.credits} credits once the payment settles` },
      monthly: {
        auto_refill: true,
        interval: CARD_RENEWAL_TERMS.interval,
        each_renewal_grants: `${pack.credits} credits to the same bundle token, once the renewal payment settles`,
        charged: 'off-session to the card saved at checkout, once per month after the purchase settled, by this service (not by automatic processor retries)',
        does_not: [
          'retry a failed renewal (a failed month adds nothing; the next month is charged as usual)',
          'charge after cancellation (POST /api/card/renewal/cancel with X-BUNDLE-TOKEN)',
          'take back credits already granted (they remain after a cancellation or a failed renewal)',
          'change the pack or the price of later renewals',
        ],
        attempts_per_period: CARD_RENEWAL_TERMS.attemptsPerPeriod,
        cancel: { method: 'POST', path: CANCEL_PATH, header: 'X-BUNDLE-TOKEN' },
      },
    },
  };
}

/**
 * The body of `GET /api/card/packs`: every pack with its live quote, from the catalog.
 * @param available - whether this server has a card processor configured
 * @returns the body
 */
export function presentPacks(available: boolean): Record<string, unknown> {
  return {
    available,
    quoted_at: new Date().toISOString(),
    packs: CARD_PACKS.map(presentPack),
    checkout: {
      method: 'POST',
      path: CHECKOUT_PATH,
      body: { pack: CARD_PACKS.map((p) => p.id).join(' | '), auto_refill: 'boolean, optional, default false (one-time)' },
      top_up: 'send an existing bundle token in X-BUNDLE-TOKEN to add the credits to that bundle',
      note: 'The price comes from the pack id; card data is entered on the hosted checkout page, never sent to this service.',
    },
    credits: {
      redeem_header: 'X-BUNDLE-TOKEN',
      redeems: 'basic tier only, one credit per session (POST /api/simulate)',
      belongs_to: 'whoever holds the bundle token (a card bundle has no wallet: any wallet_address may spend it with the token)',
      balance: { method: 'GET', path: '/api/bundle/balance' },
    },
  };
}
