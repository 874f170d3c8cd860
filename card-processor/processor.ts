import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../shared/logger';
import { renderCheckoutPage, renderClosedPage } from './checkout-page';
import { parseForm, type FormObject, type FormValue } from './form';
import { chargeOutcome, parseExpiry } from './test-cards';
import type { WebhookSender } from './webhooks';

/** The API version stamped on events (the one the installed SDK pins). */
export const API_VERSION = '2026-10-28.endive';

type Json = Record<string, unknown>;

/** A request the API answered (for tests that count charge attempts). */
export interface ApiRequestRecord {
  method: string;
  path: string;
  idempotencyKey: string | null;
  /** True when the answer was a replay of an earlier request with the same key. */
  replayed: boolean;
  status: number;
}

interface StoredResponse {
  method: string;
  path: string;
  paramsHash: string;
  status: number;
  body: string;
}

interface SessionRecord {
  object: Json;
  /** payment_intent_data given at creation: the payment's metadata and setup_future_usage. */
  intentData: { metadata: Record<string, string>; setupFutureUsage: string | null };
  productName: string;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(String(body.message ?? 'error'));
  }
}

function invalid(message: string, param?: string): ApiError {
  return new ApiError(400, { type: 'invalid_request_error', message, ...(param ? { param } : {}) });
}

function missing(kind: string, id: string, param: string): ApiError {
  return new ApiError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'`, param });
}

function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

const now = () => Math.floor(Date.now() / 1000);

function str(value: FormValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function int(value: FormValue | undefined, param: string): number {
  const text = str(value);
  if (text === undefined || !/^[0-9]{1,12}$/.test(text)) throw invalid(`Invalid integer: ${text ?? ''}`, param);
  return Number(text);
}

function metadataOf(value: FormValue | undefined, param: string): Record<string, string> {
  if (value === undefined || value === '') return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid('Invalid object', param);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw invalid('Metadata values must be strings', `${param}[${k}]`);
    out[k] = v;
  }
  return out;
}

function bool(value: FormValue | undefined): boolean {
  return value === 'true';
}

async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw invalid('Request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Behaviour of a saved card when charged off-session (tests make a saved card decline later). */
export type SavedCardBehaviour = 'succeed' | 'decline';

/**
 * The state and HTTP handling of the local development card processor: a subset of Stripe's API
 * (Checkout Sessions, PaymentIntents charged off-session on a saved card, Events), Idempotency-Key
 * semantics, the hosted checkout page, and signed webhook events. Everything lives in memory.
 */
export class CardProcessorCore {
  readonly #sessions = new Map<string, SessionRecord>();
  readonly #intents = new Map<string, Json>();
  readonly #paymentMethods = new Map<string, { object: Json; behaviour: SavedCardBehaviour }>();
  readonly #events: Json[] = [];
  readonly #idempotency = new Map<string, StoredResponse>();
  /** Every API request answered, in order. */
  readonly requests: ApiRequestRecord[] = [];

  /**
   * @param options - the accepted secret key, the webhook sender, the public base URL of the hosted page, logger
   */
  constructor(
    private readonly options: { secretKey: string; webhooks: WebhookSender; baseUrl: () => string; log: Logger },
  ) {}

  /** Every event created so far, oldest first. */
  get events(): readonly Json[] {
    return this.#events;
  }

  /**
   * Makes a saved payment method succeed or decline when charged from now on.
   * @param paymentMethodId - `pm_...`
   * @param behaviour - succeed or decline
   */
  setSavedCardBehaviour(paymentMethodId: string, behaviour: SavedCardBehaviour): void {
    const pm = this.#paymentMethods.get(paymentMethodId);
    if (!pm) throw new Error(`no payment method ${paymentMethodId}`);
    pm.behaviour = behaviour;
  }

  /**
   * A checkout session as the API shows it.
   * @param id - `cs_...`
   * @returns the session object, or undefined
   */
  session(id: string): Json | undefined {
    return this.#sessions.get(id)?.object;
  }

  /**
   * Handles one HTTP request.
   * @param req - the request
   * @param res - the response
   */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://processor.local');
    try {
      if (url.pathname.startsWith('/pay/')) {
        await this.#handlePage(req, res, decodeURIComponent(url.pathname.slice('/pay/'.length)));
        return;
      }
      if (url.pathname.startsWith('/v1/')) {
        await this.#handleApi(req, res, url);
        return;
      }
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    } catch (err) {
      this.options.log.error({ err }, 'card processor request failed');
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: 'Internal error' } }));
    }
  }

  async #handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const path = url.pathname;
    const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
    const send = (status: number, body: string, replayed: boolean) => {
      this.requests.push({ method, path, idempotencyKey: key, replayed, status });
      const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Request-Id': newId('req') };
      if (key) headers['Idempotency-Key'] = key;
      if (replayed) headers['Idempotent-Replayed'] = 'true';
      res.writeHead(status, headers).end(body);
    };
    const auth = req.headers.authorization ?? '';
    if (auth !== `Bearer ${this.options.secretKey}`) {
      send(401, JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } }), false);
      return;
    }
    const text = method === 'GET' ? url.search.slice(1) : await readBody(req, 256 * 1024);
    const params = parseForm(text);
    const paramsHash = createHash('sha256').update(`${method} ${path}\n${text}`).digest('hex');
    // Stripe's rule: a key replays the first answer for the same request, and refuses another request.
    if (key && method === 'POST') {
      const stored = this.#idempotency.get(key);
      if (stored) {
        if (stored.paramsHash !== paramsHash) {
          send(
            400,
            JSON.stringify({
              error: {
                type: 'idempotency_error',
                message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
              },
            }),
            false,
          );
          return;
        }
        send(stored.status, stored.body, true);
        return;
      }
    }
    let status = 200;
    let body: string;
    try {
      body = JSON.stringify(this.#route(method, path, params));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      status = err.status;
      body = JSON.stringify({ error: err.body });
    }
    // Answers are kept for their key whatever they were (a declined charge replays its decline).
    if (key && method === 'POST') this.#idempotency.set(key, { method, path, paramsHash, status, body });
    send(status, body, false);
  }

  #route(method: string, path: string, params: FormObject): Json {
    const parts = path.split('/').filter(Boolean);
    if (method === 'POST' && path === '/v1/checkout/sessions') return this.#createSession(params);
    if (method === 'GET' && parts[1] === 'checkout' && parts[2] === 'sessions' && parts.length === 4) {
      const found = this.#sessions.get(parts[3]);
      if (!found) throw missing('checkout.session', parts[3], 'session');
      return found.object;
    }
    if (method === 'POST' && path === '/v1/payment_intents') return this.#createIntent(params);
    if (method === 'GET' && parts[1] === 'payment_intents' && parts.length === 3) {
      const found = this.#intents.get(parts[2]);
      if (!found) throw missing('payment_intent', parts[2], 'intent');
      return found;
    }
    if (method === 'GET' && path === '/v1/events') return this.#listEvents(params);
    if (method === 'GET' && parts[1] === 'events' && parts.length === 3) {
      const found = this.#events.find((e) => e.id === parts[2]);
      if (!found) throw missing('event', parts[2], 'id');
      return found;
    }
    throw new ApiError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  }

  #createSession(params: FormObject): Json {
    if (str(params.mode) !== 'payment') throw invalid('This processor supports mode=payment only.', 'mode');
    const successUrl = str(params.success_url);
    if (!successUrl || !/^https?:\/\//.test(successUrl)) throw invalid('Missing required param: success_url.', 'success_url');
    const cancelUrl = str(params.cancel_url) ?? null;
    const items = params.line_items;
    if (!Array.isArray(items) || items.length === 0) throw invalid('Missing required param: line_items.', 'line_items');
    let total = 0;
    let currency: string | undefined;
    let productName = '';
    items.forEach((item, i) => {
      if (typeof item !== 'object' || Array.isArray(item)) throw invalid('Invalid line item', `line_items[${i}]`);
      const priceData = item.price_data;
      if (typeof priceData !== 'object' || Array.isArray(priceData)) throw invalid('This processor supports price_data line items only.', `line_items[${i}][price_data]`);
      const amount = int(priceData.unit_amount, `line_items[${i}][price_data][unit_amount]`);
      const itemCurrency = str(priceData.currency)?.toLowerCase();
      if (!itemCurrency || !/^[a-z]{3}$/.test(itemCurrency)) throw invalid('Invalid currency', `line_items[${i}][price_data][currency]`);
      if (currency && currency !== itemCurrency) throw invalid('All line items must have the same currency.', `line_items[${i}][price_data][currency]`);
      currency = itemCurrency;
      const product = priceData.product_data;
      const name = typeof product === 'object' && !Array.isArray(product) ? str(product.name) : undefined;
      if (!name) throw invalid('Missing required param: line_items[0][price_data][product_data][name].', `line_items[${i}][price_data][product_data][name]`);
      productName = productName ? `${productName}, ${name}` : name;
      total += amount * int(item.quantity ?? '1', `line_items[${i}][quantity]`);
    });
    const intentParams = params.payment_intent_data;
    const intentData =
      typeof intentParams === 'object' && !Array.isArray(intentParams)
        ? { metadata: metadataOf(intentParams.metadata, 'payment_intent_data[metadata]'), setupFutureUsage: str(intentParams.setup_future_usage) ?? null }
        : { metadata: {}, setupFutureUsage: null };
    const id = newId('cs_test');
    const created = now();
    const object: Json = {
      id,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_subtotal: total,
      amount_total: total,
      currency,
      customer: null,
      customer_creation: str(params.customer_creation) ?? 'if_required',
      client_reference_id: str(params.client_reference_id) ?? null,
      metadata: metadataOf(params.metadata, 'metadata'),
      payment_intent: null,
      success_url: successUrl,
      cancel_url: cancelUrl,
      url: `${this.options.baseUrl()}/pay/${id}`,
      created,
      expires_at: created + 24 * 3600,
      livemode: false,
    };
    this.#sessions.set(id, { object, intentData, productName });
    return object;
  }

  #createIntent(params: FormObject): Json {
    const amount = int(params.amount, 'amount');
    if (amount < 50) throw invalid('Amount must be at least 50 cents.', 'amount');
    const currency = str(params.currency)?.toLowerCase();
    if (!currency || !/^[a-z]{3}$/.test(currency)) throw invalid('Missing required param: currency.', 'currency');
    if (!bool(params.confirm) || !bool(params.off_session)) throw invalid('This processor supports confirm=true with off_session=true only.', 'confirm');
    const pmId = str(params.payment_method) ?? '';
    const pm = this.#paymentMethods.get(pmId);
    if (!pm) throw missing('payment_method', pmId, 'payment_method');
    const customer = str(params.customer) ?? null;
    if (customer !== pm.object.customer) throw invalid('The payment method is not attached to this customer.', 'customer');
    const metadata = metadataOf(params.metadata, 'metadata');
    const declined = pm.behaviour === 'decline';
    const intent: Json = {
      id: newId('pi'),
      object: 'payment_intent',
      amount,
      amount_received: declined ? 0 : amount,
      currency,
      customer,
      payment_method: pmId,
      metadata,
      status: declined ? 'requires_payment_method' : 'succeeded',
      last_payment_error: declined ? { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' } : null,
      created: now(),
      livemode: false,
    };
    this.#intents.set(intent.id as string, intent);
    if (declined) {
      this.#emit('payment_intent.payment_failed', intent);
      throw new ApiError(402, { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.', payment_intent: intent });
    }
    this.#emit('payment_intent.succeeded', intent);
    return intent;
  }

  #listEvents(params: FormObject): Json {
    const types = new Set<string>();
    if (str(params.type)) types.add(str(params.type) as string);
    if (Array.isArray(params.types)) for (const t of params.types) if (typeof t === 'string') types.add(t);
    const created = params.created;
    const gte = typeof created === 'object' && !Array.isArray(created) && str(created.gte) ? Number(str(created.gte)) : undefined;
    const limit = Math.min(100, Math.max(1, Number(str(params.limit) ?? '10') || 10));
    let list = [...this.#events].reverse();
    if (types.size > 0) list = list.filter((e) => types.has(e.type as string));
    if (gte !== undefined) list = list.filter((e) => (e.created as number) >= gte);
    const after = str(params.starting_after);
    if (after) {
      const index = list.findIndex((e) => e.id === after);
      list = index < 0 ? [] : list.slice(index + 1);
    }
    return { object: 'list', url: '/v1/events', has_more: list.length > limit, data: list.slice(0, limit) };
  }

  #emit(type: string, object: Json): void {
    const event: Json = {
      id: newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: now(),
      type,
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    };
    this.#events.push(event);
    this.options.webhooks.enqueue(event.id as string, JSON.stringify(event, null, 2));
  }

  async #handlePage(req: IncomingMessage, res: ServerResponse, sessionId: string): Promise<void> {
    const record = this.#sessions.get(sessionId);
    const html = (status: number, body: string): void => {
      res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).end(body);
    };
    if (!record) {
      html(404, renderClosedPage('This checkout session does not exist.'));
      return;
    }
    const session = record.object;
    if (session.status !== 'open') {
      html(410, renderClosedPage(session.status === 'complete' ? 'This checkout was paid already.' : 'This checkout session has expired.'));
      return;
    }
    const view = { sessionId, productName: record.productName, amount: session.amount_total as number, currency: session.currency as string, cancelUrl: session.cancel_url as string | null };
    if (req.method === 'GET') {
      html(200, renderCheckoutPage(view));
      return;
    }
    if (req.method !== 'POST') {
      html(405, renderClosedPage('Method not allowed.'));
      return;
    }
    const form = parseForm(await readBody(req, 16 * 1024));
    const name = (str(form.cardholder_name) ?? '').trim();
    const refuse = (status: number, error: string) => html(status, renderCheckoutPage({ ...view, error, name }));
    if (!name) return refuse(400, 'Enter the name on the card.');
    if (!parseExpiry(str(form.card_expiry) ?? '')) return refuse(400, 'Your card\'s expiration date is incomplete or in the past.');
    if (!/^[0-9]{3,4}$/.test((str(form.card_cvc) ?? '').trim())) return refuse(400, 'Your card\'s security code is incomplete.');
    const outcome = chargeOutcome(str(form.card_number) ?? '');
    if (!outcome.ok) return refuse(outcome.code === 'card_declined' ? 402 : 400, outcome.message);
    this.#completeSession(record, (str(form.card_number) ?? '').replace(/[\s-]/g, '').slice(-4), outcome.brand);
    const successUrl = (session.success_url as string).replace('{CHECKOUT_SESSION_ID}', encodeURIComponent(sessionId));
    res.writeHead(303, { Location: successUrl, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).end();
  }

  #completeSession(record: SessionRecord, last4: string, brand: string): void {
    const session = record.object;
    const saveCard = record.intentData.setupFutureUsage !== null || session.customer_creation === 'always';
    const customer = saveCard ? newId('cus') : null;
    const pmId = newId('pm');
    const pm: Json = { id: pmId, object: 'payment_method', type: 'card', card: { brand, last4 }, customer, livemode: false };
    if (record.intentData.setupFutureUsage !== null) this.#paymentMethods.set(pmId, { object: pm, behaviour: 'succeed' });
    const intent: Json = {
      id: newId('pi'),
      object: 'payment_intent',
      amount: session.amount_total,
      amount_received: session.amount_total,
      currency: session.currency,
      customer,
      payment_method: pmId,
      setup_future_usage: record.intentData.setupFutureUsage,
      metadata: record.intentData.metadata,
      status: 'succeeded',
      last_payment_error: null,
      created: now(),
      livemode: false,
    };
    this.#intents.set(intent.id as string, intent);
    Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: intent.id, customer });
    this.#emit('payment_intent.succeeded', intent);
    this.#emit('checkout.session.completed', session);
  }
}
