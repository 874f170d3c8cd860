import type { LookupFunction } from 'node:net';
import http from 'node:http';
import https from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

/**
 * What the service may reach when it calls an address a caller or a sponsor gave it. Production
 * uses the defaults: public unicast addresses on ports 80 and 443 only.
 */
export interface OutboundPolicy {
  /**
   * Addresses (IP or CIDR) a development or test configuration lets through although they are
   * loopback or private, e.g. the loopback "site" a test serves. Empty in production.
   */
  allowAddresses: readonly string[];
  /** Ports besides 80 and 443 that are allowed (the test site's ephemeral port). Empty in production. */
  allowPorts: readonly number[];
  /** The whole exchange's deadline, redirects and body included. */
  timeoutMs: number;
  /** The most bytes of a body read; a longer body is refused, not truncated. */
  maxBytes: number;
  /** The most redirects followed; each hop is checked again like the first. */
  maxRedirects: number;
  /** Name resolution; tests give controlled answers so no name ever leaves the machine. */
  lookup?: LookupFunction;
}

/** The production policy's bounds. */
export const DEFAULT_OUTBOUND_POLICY: OutboundPolicy = {
  allowAddresses: [],
  allowPorts: [],
  timeoutMs: 5_000,
  maxBytes: 512 * 1024,
  maxRedirects: 3,
};

/** Why the guard refused or could not finish an outbound call. */
export type OutboundRefusalReason =
  | 'invalid_url'
  | 'scheme'
  | 'port'
  | 'credentials'
  | 'address'
  | 'redirects'
  | 'too_large'
  | 'content_type'
  | 'timeout'
  | 'unreachable';

/**
 * An outbound call the guard refused (before connecting, for the address rules) or could not
 * finish. The message names no more than the reason and the host, never a body.
 */
export class OutboundRefusal extends Error {
  readonly reason: OutboundRefusalReason;

  /**
   * @param reason - the rule that stopped the call
   * @param message - one sentence
   */
  constructor(reason: OutboundRefusalReason, message: string) {
    super(message);
    this.name = 'OutboundRefusal';
    this.reason = reason;
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

/** What a caller of {@link OutboundGuard.fetch} may set. */
export interface OutboundInit {
  method?: string;
  headers?: HeadersInit;
  /** A text or byte body (what JSON clients send); a stream or form is refused. */
  body?: BodyInit | null;
  signal?: AbortSignal | null;
  /** Accepted media types (`text/html`, `application/json`, ...); anything else is refused. */
  contentTypes?: readonly string[];
}

/** The one way the service calls an address it was given. */
export interface OutboundGuard {
  /**
   * Fetches a URL under the policy and answers a standard `Response` whose body is already read
   * (bounded), so it can serve as the `fetch` of an official client (the `openai` SDK).
   * Throws {@link OutboundRefusal} for every refused or failed call.
   */
  fetch(input: string | URL | Request, init?: OutboundInit): Promise<Response>;
}

const STANDARD_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Creates the guard. Address checks are `request-filtering-agent`'s, done on the resolved address
 * inside the agent's connection, so the socket connects to exactly the address that was checked
 * (no second resolution a rebinding name could answer differently).
 * @param policy - what may be reached and the bounds
 * @returns the guard
 */
export function createOutboundGuard(policy: OutboundPolicy = DEFAULT_OUTBOUND_POLICY): OutboundGuard {
  const filter = { allowIPAddressList: [...policy.allowAddresses], allowPrivateIPAddress: false, allowMetaIPAddress: false };
  return {
    async fetch(input, init = {}) {
      const request = input instanceof Request ? input : undefined;
      const deadline = AbortSignal.timeout(policy.timeoutMs);
      const callerSignal = init.signal ?? request?.signal;
      const signal = callerSignal ? AbortSignal.any([deadline, callerSignal]) : deadline;
      let url = checkedUrl(request ? request.url : String(input), policy);
      let method = (init.method ?? request?.method ?? 'GET').toUpperCase();
      let body = bytesOf(init.body ?? (request?.body ? new Uint8Array(await request.arrayBuffer()) : undefined));
      const headers = new Headers(init.headers ?? request?.headers);
      for (let hop = 0; ; hop += 1) {
        const answer = await exchange(url, { method, headers, body, signal }, policy, filter, deadline);
        const location = answer.headers.get('location');
        if (!REDIRECTS.has(answer.status) || location === null) return finish(answer, init.contentTypes);
        if (hop >= policy.maxRedirects) throw new OutboundRefusal('redirects', `More than ${policy.maxRedirects} redirects from ${url.host}.`);
        url = checkedUrl(new URL(location, url).toString(), policy);
        if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
      }
    },
  };
}

function bytesOf(body: BodyInit | null | undefined): string | Uint8Array | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError('The outbound guard sends text or byte bodies only.');
}

// Scheme, port and credentials are decided from the URL alone, before any name is resolved.
function checkedUrl(raw: string, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefusal('invalid_url', 'The address is not a valid URL.');
  }
  const standard = STANDARD_PORTS[url.protocol];
  if (standard === undefined) throw new OutboundRefusal('scheme', `Only http and https are fetched, not ${url.protocol.replace(/:$/, '')}.`);
  if (url.username !== '' || url.password !== '') throw new OutboundRefusal('credentials', 'Addresses with user names or passwords are not fetched.');
  const port = url.port === '' ? standard : Number(url.port);
  if (port !== 80 && port !== 443 && !policy.allowPorts.includes(port)) {
    throw new OutboundRefusal('port', `Only the standard ports 80 and 443 are fetched, not ${port}.`);
  }
  return url;
}

interface RawAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

function exchange(
  url: URL,
  request: { method: string; headers: Headers; body: string | Uint8Array | undefined; signal: AbortSignal },
  policy: OutboundPolicy,
  filter: { allowIPAddressList: string[]; allowPrivateIPAddress: boolean; allowMetaIPAddress: boolean },
  deadline: AbortSignal,
): Promise<RawAnswer> {
  const secure = url.protocol === 'https:';
  const agent = secure ? new RequestFilteringHttpsAgent({ ...filter, keepAlive: false }) : new RequestFilteringHttpAgent({ ...filter, keepAlive: false });
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return new Promise<RawAnswer>((resolve, reject) => {
    const fail = (err: unknown): void => reject(refusalOf(err, url, deadline));
    const req = (secure ? https : http).request(
      url,
      { method: request.method, headers, agent, signal: request.signal, ...(policy.lookup ? { lookup: policy.lookup } : {}) },
      (res) => {
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > policy.maxBytes) {
          res.destroy();
          reject(new OutboundRefusal('too_large', `The answer from ${url.host} is larger than ${policy.maxBytes} bytes.`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > policy.maxBytes) {
            res.destroy();
            reject(new OutboundRefusal('too_large', `The answer from ${url.host} is larger than ${policy.maxBytes} bytes.`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', fail);
        res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: headersOf(res.headers), body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', fail);
    req.end(request.body);
  }).finally(() => agent.destroy());
}

function finish(answer: RawAnswer, contentTypes: readonly string[] | undefined): Response {
  if (contentTypes && contentTypes.length > 0) {
    const type = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!contentTypes.includes(type)) throw new OutboundRefusal('content_type', `The answer's type ${type || '(none)'} is not one of ${contentTypes.join(', ')}.`);
  }
  const nullBody = answer.status === 204 || answer.status === 304;
  return new Response(nullBody ? null : new Uint8Array(answer.body), { status: answer.status, headers: answer.headers });
}

function headersOf(raw: http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

// The agent refuses an address with a plain Error whose message says "is not allowed"; that,
// the deadline and everything else are told apart here so callers decide on a reason, not a text.
function refusalOf(err: unknown, url: URL, deadline: AbortSignal): OutboundRefusal {
  if (err instanceof OutboundRefusal) return err;
  if (deadline.aborted) return new OutboundRefusal('timeout', `${url.host} did not answer in time.`);
  const message = err instanceof Error ? err.message : '';
  if (/is not allowed/.test(message)) return new OutboundRefusal('address', `${url.hostname} resolves to an address that is not fetched (loopback, private, link-local or reserved).`);
  return new OutboundRefusal('unreachable', `${url.host} could not be reached.`);
}
