import Stripe from 'stripe';
import type { AppConfig } from '../config';
import { UnavailableError } from '../errors';

/** The Stripe client of the card packs, or undefined when card payments are off (no secret key). */
export type CardProcessor = Stripe | undefined;

/**
 * The official Stripe SDK client. With `STRIPE_API_URL` it talks to that Stripe-compatible API (the
 * local development card processor of `npm start`) through the SDK's documented host, port and
 * protocol options; otherwise to api.stripe.com. No automatic network retries: every write we send
 * carries its own Idempotency-Key, and a renewal is charged once per period (a lost answer is
 * resumed by the next renewal run with the same key, which Stripe answers with the first outcome).
 * @param cards - the `cards` section of the config
 * @returns the client, or undefined when no secret key is configured
 */
export function createStripeClient(cards: AppConfig['cards']): CardProcessor {
  if (!cards.stripeSecretKey) return undefined;
  const options: Stripe.StripeConfig = {
    timeout: cards.stripeTimeoutMs,
    maxNetworkRetries: 0,
    appInfo: { name: 'humanlike' },
    // The SDK reports client telemetry to api.stripe.com otherwise; we send nothing we need not.
    telemetry: false,
  };
  if (cards.stripeApiUrl) {
    const url = new URL(cards.stripeApiUrl);
    const protocol = url.protocol === 'https:' ? 'https' : 'http';
    Object.assign(options, { host: url.hostname, port: Number(url.port || (protocol === 'https' ? 443 : 80)), protocol });
  }
  return new Stripe(cards.stripeSecretKey, options);
}

/**
 * The processor client, or the refusal of a server without one.
 * @param stripe - the client, if configured
 * @returns the client
 * @throws UnavailableError card_payments_unavailable when no processor is configured
 */
export function requireProcessor(stripe: CardProcessor): Stripe {
  if (!stripe) {
    throw new UnavailableError('card_payments_unavailable', 'Card payments are not configured on this server (STRIPE_SECRET_KEY); pay per call with x402 instead.');
  }
  return stripe;
}
