import { createHmac } from 'node:crypto';
import type { Logger } from '../shared/logger';

/**
 * A `Stripe-Signature` header as Stripe documents it: `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<payload>" under the endpoint's signing secret>`.
 * @param payload - the exact body bytes sent
 * @param secret - the endpoint's signing secret (`whsec_...`, used whole as the key)
 * @param timestamp - Unix seconds (now when omitted)
 * @returns the header value
 */
export function signatureHeader(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/** One delivery attempt of an event to the endpoint. */
export interface DeliveryAttempt {
  eventId: string;
  status: number | 'network_error';
  at: Date;
}

/** Options of {@link WebhookSender}. */
export interface WebhookSenderOptions {
  secret: string;
  log: Logger;
  /** Delays before the 2nd, 3rd, ... attempt of a failed delivery (Stripe retries for days; a dev processor briefly). */
  retryDelaysMs: readonly number[];
}

/**
 * Delivers events to one endpoint, at least once: a non-2xx answer or a network error is retried
 * after each of `retryDelaysMs`. Each attempt is signed afresh (a new timestamp), as Stripe does.
 */
export class WebhookSender {
  readonly #options: WebhookSenderOptions;
  #url: string | undefined;
  #paused = false;
  readonly #held: Array<{ id: string; payload: string }> = [];
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #inflight = new Set<Promise<unknown>>();
  /** Every attempt, in order. */
  readonly attempts: DeliveryAttempt[] = [];

  /** @param options - signing secret, logger, retry delays */
  constructor(options: WebhookSenderOptions) {
    this.#options = options;
  }

  /** @param url - the endpoint events are sent to (undefined: hold them until one is set) */
  setUrl(url: string | undefined): void {
    this.#url = url;
    if (url && !this.#paused) this.#flush();
  }

  /** Holds new events instead of sending them (tests deliver them by hand, in any order). */
  pause(): void {
    this.#paused = true;
  }

  /** Sends what was held, and new events from now on. */
  resume(): void {
    this.#paused = false;
    this.#flush();
  }

  /**
   * Queues an event for delivery.
   * @param id - event id
   * @param payload - the JSON body
   */
  enqueue(id: string, payload: string): void {
    if (this.#paused || !this.#url) {
      this.#held.push({ id, payload });
      return;
    }
    this.#attempt(id, payload, 0);
  }

  /**
   * One signed delivery, now, whatever the pause; no retry.
   * @param id - event id
   * @param payload - the body to send (tests may send altered bodies)
   * @param options - a signature header to send instead of a fresh one
   * @returns the endpoint's status
   */
  async deliverOnce(id: string, payload: string, options: { signature?: string } = {}): Promise<number | 'network_error'> {
    return this.#post(id, payload, options.signature ?? signatureHeader(payload, this.#options.secret));
  }

  /** Stops retries and waits for requests in flight. */
  async close(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    await Promise.allSettled([...this.#inflight]);
  }

  #flush(): void {
    for (const held of this.#held.splice(0)) this.#attempt(held.id, held.payload, 0);
  }

  #attempt(id: string, payload: string, attempt: number): void {
    const work = this.#post(id, payload, signatureHeader(payload, this.#options.secret)).then((status) => {
      if (typeof status === 'number' && status >= 200 && status < 300) return;
      const delay = this.#options.retryDelaysMs[attempt];
      if (delay === undefined) {
        this.#options.log.warn({ eventId: id, status }, 'webhook delivery gave up');
        return;
      }
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        this.#attempt(id, payload, attempt + 1);
      }, delay);
      this.#timers.add(timer);
    });
    this.#inflight.add(work);
    void work.finally(() => this.#inflight.delete(work));
  }

  async #post(id: string, payload: string, signature: string): Promise<number | 'network_error'> {
    const url = this.#url;
    if (!url) return 'network_error';
    let status: number | 'network_error';
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': signature, 'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' },
        body: payload,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      status = res.status;
    } catch {
      status = 'network_error';
    }
    this.attempts.push({ eventId: id, status, at: new Date() });
    this.#options.log.debug({ eventId: id, status }, 'webhook delivered');
    return status;
  }
}
