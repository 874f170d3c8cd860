import { fileSpendStore, type SpendStore } from './spend-store';

/** Defaults of the contract (section 8): a spend ceiling of 500 credits and 30 requests a minute. */
export const DEFAULT_SPEND_CEILING = 500;
export const DEFAULT_THROTTLE_PER_MINUTE = 30;

/** How the host adapter is set up. */
export interface EmbedForwarderOptions {
  /** The humanlike service's origin, e.g. `https://humanlike.example` (no trailing path). */
  serviceUrl: string;
  /** The company's bundle token; it never leaves the host server except to the service. */
  bundleToken: string;
  /** Where the spend is kept: a {@link SpendStore}, or a file path for the built-in file store. */
  spend: SpendStore | string;
  /** Credits the adapter may spend in all (default 500); beyond, it answers 403 spend_ceiling_reached itself. */
  spendCeiling?: number;
  /** Requests per rolling minute the adapter forwards (default 30); beyond, it answers 429 host_throttled itself. */
  throttlePerMinute?: number;
  /** Deadline of one forwarded request (default 20 s: a contextual check may take 12 s). */
  timeoutMs?: number;
  /** Clock (ms); tests pass their own. */
  now?: () => number;
  /** The fetch to forward with (default the global one). */
  fetch?: typeof fetch;
}

/** A request from the browser component, as any framework hands it over. */
export interface ComponentRequest {
  /** The parsed JSON body, forwarded as is (the service validates it). */
  body: unknown;
  /** The component's Idempotency-Key header. */
  idempotencyKey?: string;
}

/** The answer to send back to the component. */
export interface ForwardedAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The framework-neutral core of the host adapter. */
export interface EmbedForwarder {
  /**
   * Answers one component request: throttled or over the ceiling here, else forwarded.
   * @param request - body and key
   * @returns status, headers and body to send
   */
  handle(request: ComponentRequest): Promise<ForwardedAnswer>;
}

const PASSED_HEADERS = ['retry-after', 'x-payment-replayed'];

function refusal(status: number, code: string, message: string, headers: Record<string, string> = {}, details: unknown = null): ForwardedAnswer {
  return { status, headers: { 'cache-control': 'no-store', ...headers }, body: { error: { code, message, details } } };
}

/**
 * Creates the forwarder every framework adapter wraps: it receives the component's checks and
 * forwards them server-to-server to `POST /api/embed/check` with the company's bundle token.
 * It answers two things itself, without reaching the service: the throttle (429 host_throttled,
 * with Retry-After) and the spend ceiling (403 spend_ceiling_reached), a durable policy: only
 * charged answers (200, not a replay) count, recorded in the store before the answer is sent, so
 * a restart resumes from the recorded total. Everything else (429 paid_capacity_busy and
 * Retry-After included) passes through unchanged.
 * @param options - service, token, spend store, limits
 * @returns the forwarder
 */
export function createEmbedForwarder(options: EmbedForwarderOptions): EmbedForwarder {
  const ceiling = options.spendCeiling ?? DEFAULT_SPEND_CEILING;
  const perMinute = options.throttlePerMinute ?? DEFAULT_THROTTLE_PER_MINUTE;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const now = options.now ?? Date.now;
  const doFetch = options.fetch ?? fetch;
  const store = typeof options.spend === 'string' ? fileSpendStore(options.spend) : options.spend;
  const target = `${options.serviceUrl.replace(/\/+$/, '')}/api/embed/check`;
  // Start times of the requests admitted in the last minute, oldest first.
  const window: number[] = [];
  // Checks forwarded and not yet answered: each may be charged, so each holds a credit of the ceiling.
  let pending = 0;

  return {
    async handle(request) {
      const at = now();
      while (window.length > 0 && window[0] <= at - 60_000) window.shift();
      if (window.length >= perMinute) {
        const retryAfter = Math.max(1, Math.ceil((window[0] + 60_000 - at) / 1000));
        return refusal(429, 'host_throttled', `At most ${perMinute} checks a minute; retry after Retry-After.`, { 'retry-after': String(retryAfter) });
      }
      if ((await store.spent()) + pending >= ceiling) {
        return refusal(403, 'spend_ceiling_reached', `This host's spend ceiling of ${ceiling} credits is reached; checks are paused until an operator raises it.`, {}, { ceiling });
      }
      window.push(at);
      pending++;
      try {
        let res: Response;
        try {
          res = await doFetch(target, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-bundle-token': options.bundleToken,
              ...(request.idempotencyKey ? { 'idempotency-key': request.idempotencyKey } : {}),
            },
            body: JSON.stringify(request.body ?? {}),
            signal: AbortSignal.timeout(timeoutMs),
          });
        } catch {
          return refusal(503, 'service_unreachable', 'The checking service could not be reached; retry with the same key.', { 'retry-after': '2' });
        }
        const text = await res.text();
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          return refusal(502, 'bad_service_answer', 'The checking service gave an answer that is not JSON.');
        }
        const headers: Record<string, string> = { 'cache-control': 'no-store' };
        for (const name of PASSED_HEADERS) {
          const value = res.headers.get(name);
          if (value !== null) headers[name] = value;
        }
        const charged = res.status === 200 && headers['x-payment-replayed'] !== 'true' && (body as { billing?: { credits_spent?: unknown } })?.billing?.credits_spent === 1;
        if (charged) await store.add(1);
        return { status: res.status, headers, body };
      } finally {
        pending--;
      }
    },
  };
}
