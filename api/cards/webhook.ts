import type Stripe from 'stripe';
import { AppError } from '../../shared/errors';

/** Path of the webhook endpoint (the app's JSON body parser leaves it alone: the signature is over the raw bytes). */
export const CARD_WEBHOOK_PATH = '/api/card/webhook';

/**
 * Verifies a webhook with the SDK (`constructEvent` over the exact bytes received, never a
 * re-serialised body) and returns its event.
 * @param stripe - the processor client
 * @param raw - the body bytes
 * @param signature - the `Stripe-Signature` header
 * @param secret - the endpoint's signing secret
 * @param toleranceSeconds - oldest signature timestamp accepted
 * @returns the event
 * @throws AppError 400 invalid_signature (missing, wrong or stale signature, or not an event)
 */
export function verifyWebhook(stripe: Stripe, raw: Buffer, signature: string, secret: string, toleranceSeconds: number): Stripe.Event {
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(raw, signature, secret, toleranceSeconds);
  } catch (err) {
    throw new AppError(400, 'invalid_signature', 'The webhook signature is missing, wrong or too old; nothing was recorded.', { cause: err });
  }
  if (typeof event?.id !== 'string' || typeof event.type !== 'string' || event.object !== 'event') {
    throw new AppError(400, 'invalid_signature', 'The signed body is not an event; nothing was recorded.');
  }
  return event;
}
