import type { BundleCardState } from './card-store';

/**
 * The card side of a bundle as `GET /api/bundle/balance` and the renewal cancellation show it:
 * purchases still pending, and each renewal with its state, next charge and last charge.
 * @param state - from `bundleCardState`
 * @returns `pending_purchases` and `renewals`
 */
export function presentCardState(state: BundleCardState): { pending_purchases: Array<Record<string, unknown>>; renewals: Array<Record<string, unknown>> } {
  return {
    pending_purchases: state.pending.map((p) => ({
      purchase_id: p.id,
      pack: p.pack,
      credits: p.credits,
      amount_cents: p.amountCents,
      currency: p.currency,
      auto_refill: p.autoRefill,
      status: p.status,
      created_at: p.createdAt.toISOString(),
    })),
    renewals: state.renewals.map((r) => ({
      renewal_id: r.id,
      pack: r.pack,
      credits: r.credits,
      amount_cents: r.amountCents,
      currency: r.currency,
      interval: 'month',
      status: r.status,
      next_charge_at: r.status === 'active' ? r.nextChargeAt.toISOString() : null,
      renewals_attempted: r.nextPeriod - 1,
      last_charge: r.lastCharge ? { period: r.lastCharge.period, status: r.lastCharge.status, at: r.lastCharge.at.toISOString() } : null,
      cancelled_at: r.cancelledAt ? r.cancelledAt.toISOString() : null,
    })),
  };
}
