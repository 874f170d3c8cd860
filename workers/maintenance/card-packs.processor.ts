import type { Job } from 'bullmq';
import Stripe from 'stripe';
import type { DataSource } from 'typeorm';
import { applyCardEvent, applyRenewalPayment, HANDLED_EVENT_TYPES, RENEWAL_KIND } from '../../shared/cards/apply-event';
import { claimDueRenewal, failRenewalCharge, findUnfinishedRenewalCharges, isCardEventProcessed, type RenewalCharge } from '../../shared/cards/card-store';
import type { Logger } from '../../shared/logger';

/** Name of the job that charges due card-pack renewals. */
export const CARD_RENEWALS_JOB = 'card-renewals';

/** Fixed id of its job scheduler. */
export const CARD_RENEWALS_SCHEDULER = 'maintenance-card-renewals';

/** Name of the job that grants paid card payments whose webhook never arrived. */
export const CARD_RECONCILER_JOB = 'card-reconciler';

/** Fixed id of its job scheduler. */
export const CARD_RECONCILER_SCHEDULER = 'maintenance-card-reconciler';

/** A renewal charge that never reported back is resumed (same key) after this long. */
const RESUME_AFTER_SECONDS = 120;

/** Renewals one run charges at most (the next run takes the rest). */
const RENEWALS_PER_RUN = 200;

/** What the card jobs need. */
export interface CardJobDeps {
  dataSource: DataSource;
  stripe: Stripe;
  log: Logger;
}

/** What one renewal run did. */
export interface RenewalReport {
  charged: number;
  granted: number;
  failed: number;
  /** Calls that did not answer (resumed with the same key by a later run). */
  unknown: number;
}

async function charge(deps: CardJobDeps, claimed: RenewalCharge, report: RenewalReport): Promise<void> {
  const { renewal, period, idempotencyKey } = claimed;
  const log = deps.log.child({ renewalId: renewal.id, period });
  report.charged += 1;
  let intent: Stripe.PaymentIntent;
  try {
    intent = await deps.stripe.paymentIntents.create(
      {
        amount: renewal.amountCents,
        currency: renewal.currency,
        customer: renewal.customerId,
        payment_method: renewal.paymentMethodId,
        off_session: true,
        confirm: true,
        metadata: { kind: RENEWAL_KIND, renewal_id: renewal.id, period: String(period), pack: renewal.pack, bundle_id: renewal.bundleId },
      },
      { idempotencyKey },
    );
  } catch (err) {
    if (err instanceof Stripe.errors.StripeCardError) {
      // Declined: nothing is granted and this period is never charged again.
      await failRenewalCharge(deps.dataSource, renewal.id, period, { code: err.decline_code ?? err.code ?? 'card_declined', paymentIntentId: err.payment_intent?.id ?? null });
      log.info({ code: err.code, declineCode: err.decline_code }, 'card renewal declined; not retried');
      report.failed += 1;
      return;
    }
    // No answer (or a processor fault): the charge stays 'attempting' and is resumed with the same
    // key, which the processor answers with this period's one outcome instead of charging again.
    log.warn({ err }, 'card renewal charge did not answer; resumed later with the same key');
    report.unknown += 1;
    return;
  }
  // The webhook grants it too; the grant is unique per payment intent, whichever comes first.
  const outcome = await applyRenewalPayment(deps, intent, null);
  if (outcome === 'granted') report.granted += 1;
}

/**
 * Charges due card-pack renewals, each period once: an active renewal whose month has come is
 * claimed (its period's charge row is unique), then charged off-session on the saved card with the
 * period's idempotency key. A settled charge grants the pack's credits to the same bundle; a
 * declined one grants nothing and is not retried. Charges left unanswered by a crash or a timeout
 * are resumed with the same key.
 * @param deps - DataSource, processor client, logger
 * @returns the processor
 */
export function createCardRenewalsProcessor(deps: CardJobDeps) {
  return async function processCardRenewals(job: Job): Promise<RenewalReport> {
    const report: RenewalReport = { charged: 0, granted: 0, failed: 0, unknown: 0 };
    const log = deps.log.child({ jobId: job.id });
    for (const unfinished of await findUnfinishedRenewalCharges(deps.dataSource, RESUME_AFTER_SECONDS)) {
      await charge({ ...deps, log }, unfinished, report);
    }
    for (let i = 0; i < RENEWALS_PER_RUN; i++) {
      const claimed = await claimDueRenewal(deps.dataSource);
      if (!claimed) break;
      await charge({ ...deps, log }, claimed, report);
    }
    if (report.charged > 0) log.info({ ...report }, 'card renewals charged');
    return report;
  };
}

/** What one reconciler run did. */
export interface CardReconcileReport {
  /** Events listed by the processor. */
  listed: number;
  /** Events applied now (their webhook never came, or came and was not applied). */
  applied: number;
  /** Of those, payments granted now. */
  granted: number;
}

/**
 * Reads the processor's events of the last `lookbackSeconds` and applies every one not applied
 * yet: a paid checkout or renewal whose webhook never arrived is granted, once (the grant is unique
 * per paid object, as for webhooks).
 * @param deps - DataSource, processor client, logger, how far back to look
 * @returns the processor
 */
export function createCardReconcilerProcessor(deps: CardJobDeps & { lookbackSeconds: number }) {
  return async function processCardReconciler(job: Job): Promise<CardReconcileReport> {
    const report: CardReconcileReport = { listed: 0, applied: 0, granted: 0 };
    const log = deps.log.child({ jobId: job.id });
    const since = Math.floor(Date.now() / 1000) - deps.lookbackSeconds;
    for await (const event of deps.stripe.events.list({ types: [...HANDLED_EVENT_TYPES], created: { gte: since }, limit: 100 })) {
      report.listed += 1;
      if (await isCardEventProcessed(deps.dataSource, event.id)) continue;
      const outcome = await applyCardEvent({ ...deps, log: log.child({ eventId: event.id, eventType: event.type }) }, event, 'reconciler');
      report.applied += 1;
      if (outcome === 'granted') {
        report.granted += 1;
        log.info({ eventId: event.id, eventType: event.type }, 'card payment reconciled: its webhook had not been applied');
      }
    }
    return report;
  };
}
