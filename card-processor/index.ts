import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, type Logger } from '../shared/logger';
import { CardProcessorCore, type ApiRequestRecord, type SavedCardBehaviour } from './processor';
import { signatureHeader, WebhookSender, type DeliveryAttempt } from './webhooks';

export { signatureHeader } from './webhooks';

/** Options of {@link startLocalCardProcessor}. */
export interface LocalCardProcessorOptions {
  /** TCP port; 0 picks a free one. Default 0. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /** Where signed events are sent (`.../api/card/webhook`); may be set later with `setWebhookUrl`. */
  webhookUrl?: string;
  /** Delays between webhook retries. Default 0.5 s, 2 s, 5 s. */
  webhookRetryDelaysMs?: readonly number[];
  logger?: Logger;
}

/** A running local development card processor. */
export interface LocalCardProcessor {
  /** Base URL of the API and the hosted page (`STRIPE_API_URL`). */
  url: string;
  /** The only API key it accepts (`STRIPE_SECRET_KEY`); a fresh test key per start. */
  secretKey: string;
  /** The webhook signing secret (`STRIPE_WEBHOOK_SECRET`). */
  webhookSecret: string;
  /** @param url - the webhook endpoint (held events are sent once it is set) */
  setWebhookUrl(url: string): void;
  /** Every event created, oldest first, as the API returns them. */
  events(): ReadonlyArray<Record<string, unknown>>;
  /** Every API request answered, in order. */
  requests(): readonly ApiRequestRecord[];
  /** Every webhook delivery attempt, in order. */
  deliveries(): readonly DeliveryAttempt[];
  /** Holds new events instead of sending them. */
  pauseWebhooks(): void;
  /** Sends held events, and new ones from now on. */
  resumeWebhooks(): void;
  /**
   * Sends one event once, signed now (or as given), whatever the pause.
   * @param eventId - the event
   * @param options - an altered body, another signature header
   * @returns the endpoint's status
   */
  deliver(eventId: string, options?: { body?: string; signature?: string }): Promise<number | 'network_error'>;
  /**
   * Signs a body as this processor's webhooks are signed.
   * @param payload - the body
   * @param timestamp - Unix seconds
   * @returns the `Stripe-Signature` header
   */
  sign(payload: string, timestamp?: number): string;
  /** Makes a saved card succeed or decline when charged off-session from now on. */
  setSavedCardBehaviour(paymentMethodId: string, behaviour: SavedCardBehaviour): void;
  close(): Promise<void>;
}

/**
 * Starts the local development card processor: the subset of Stripe's HTTP API this service uses
 * (Checkout Sessions, off-session PaymentIntents on a saved card, Events, Idempotency-Key
 * semantics), a hosted checkout page a person can click through with Stripe's test cards, and
 * webhook events signed with Stripe's `Stripe-Signature` scheme. Nothing real is charged; all state
 * is in memory and gone when it stops.
 * @param options - port, host, webhook endpoint, logger
 * @returns the running processor
 */
export async function startLocalCardProcessor(options: LocalCardProcessorOptions = {}): Promise<LocalCardProcessor> {
  const log = options.logger ?? createLogger({ log: { level: 'silent' } }, 'card-processor');
  const secretKey = `sk_test_local${randomBytes(18).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(24).toString('base64url')}`;
  const webhooks = new WebhookSender({ secret: webhookSecret, log, retryDelaysMs: options.webhookRetryDelaysMs ?? [500, 2_000, 5_000] });
  let baseUrl = '';
  const core = new CardProcessorCore({ secretKey, webhooks, baseUrl: () => baseUrl, log });
  const server = createServer((req, res) => void core.handle(req, res));
  const host = options.host ?? '127.0.0.1';
  server.listen(options.port ?? 0, host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  webhooks.setUrl(options.webhookUrl);
  log.info({ url: baseUrl }, 'local card processor listening');

  let closing: Promise<void> | undefined;
  return {
    url: baseUrl,
    secretKey,
    webhookSecret,
    setWebhookUrl: (url) => webhooks.setUrl(url),
    events: () => core.events,
    requests: () => core.requests,
    deliveries: () => webhooks.attempts,
    pauseWebhooks: () => webhooks.pause(),
    resumeWebhooks: () => webhooks.resume(),
    async deliver(eventId, deliverOptions = {}) {
      const event = core.events.find((e) => e.id === eventId);
      if (!event) throw new Error(`no event ${eventId}`);
      return webhooks.deliverOnce(eventId, deliverOptions.body ?? JSON.stringify(event, null, 2), { signature: deliverOptions.signature });
    },
    sign: (payload, timestamp) => signatureHeader(payload, webhookSecret, timestamp),
    setSavedCardBehaviour: (id, behaviour) => core.setSavedCardBehaviour(id, behaviour),
    close() {
      closing ??= (async () => {
        await webhooks.close();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}
