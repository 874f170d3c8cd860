import { EventEmitter } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// Headers that belong to one connection, not to the request being forwarded.
const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade']);

/** How the proxy treats a request to a path. */
export type ProxyFault =
  /** Forward it. */
  | 'pass'
  /** Close the connection without an answer (a facilitator that is down). */
  | 'drop'
  /** Answer 500 with a non-protocol body (a facilitator that is failing). */
  | 'error500'
  /** Hold it unanswered until the proxy is told otherwise or closed (a hung facilitator). */
  | 'hang'
  /** Forward it, then close the connection instead of returning the answer (a lost response). */
  | 'lose-response'
  /** Forward it, then answer 500 with a non-protocol body instead of the answer. */
  | 'forward-then-500'
  /**
   * Forward it, then answer HTTP 200 `success: false` with a reason that proves nothing
   * (`unexpected_settle_error`) instead of the answer.
   */
  | 'forward-then-refuse'
  /**
   * Answer HTTP 200 `success: false` with a reason that proves nothing moved
   * (`invalid_exact_evm_insufficient_balance`), without forwarding.
   */
  | 'refuse';

/** A request the proxy holds unanswered (`hang`). */
interface HeldRequest {
  path: string;
  req: IncomingMessage;
  res: ServerResponse;
  body: Buffer;
}

// The x402 settle refusal a proxy fault answers with, on the network the request names.
function refusal(body: Buffer, errorReason: string): string {
  let network = '';
  try {
    network = String((JSON.parse(body.toString('utf8')) as { paymentRequirements?: { network?: unknown } }).paymentRequirements?.network ?? '');
  } catch {
    // not JSON: answer with an empty network
  }
  return JSON.stringify({ success: false, errorReason, transaction: '', network });
}

/** A real HTTP reverse proxy in front of a real service, whose faults a test switches per path. */
export interface FaultyProxy {
  url: string;
  /** Sets the fault of one path (e.g. `/settle`), or of every path with `*`. */
  set(path: string, fault: ProxyFault): void;
  /** Forwards everything again (forgets every fault). */
  reset(): void;
  /**
   * Forwards the requests held (`hang`) on one path, then closes their connections instead of
   * answering (a slow upstream that acted after its caller gave up).
   * @param path - e.g. `/settle`
   * @returns how many were forwarded, once upstream answered each
   */
  release(path: string): Promise<number>;
  /** Emits `request` (path) for every request it receives. */
  events: EventEmitter;
  /** How many requests each path received. */
  counts: Map<string, number>;
  close(): Promise<void>;
}

/**
 * Starts a proxy on 127.0.0.1 in front of `target`. Tests use it to take a facilitator down or
 * make it fail without stubbing any code: the service under test talks HTTP to it as to the real one.
 * @param target - base URL of the real service
 * @returns the proxy
 */
export async function startFaultyProxy(target: string): Promise<FaultyProxy> {
  const faults = new Map<string, ProxyFault>();
  const counts = new Map<string, number>();
  const events = new EventEmitter();
  const held = new Set<HeldRequest>();
  const base = new URL(target);

  const faultOf = (path: string): ProxyFault => faults.get(path) ?? faults.get('*') ?? 'pass';

  async function forward(req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !HOP_BY_HOP.has(name)) headers[name] = value;
    }
    const res = await fetch(new URL(req.url ?? '/', base), {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' || !body ? undefined : new Uint8Array(body),
    });
    const answerHeaders: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      if (!HOP_BY_HOP.has(k)) answerHeaders[k] = v;
    });
    return { status: res.status, headers: answerHeaders, body: Buffer.from(await res.arrayBuffer()) };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      counts.set(path, (counts.get(path) ?? 0) + 1);
      events.emit('request', path);
      const fault = faultOf(path);
      const body = Buffer.concat(chunks);
      if (fault === 'drop') return void req.socket.destroy();
      if (fault === 'error500') return void res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream exploded');
      if (fault === 'refuse') return void res.writeHead(200, { 'content-type': 'application/json' }).end(refusal(body, 'invalid_exact_evm_insufficient_balance'));
      if (fault === 'hang') return void held.add({ path, req, res, body });
      forward(req, body).then(
        (answer) => {
          if (fault === 'lose-response') return void req.socket.destroy();
          if (fault === 'forward-then-500') return void res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream exploded');
          if (fault === 'forward-then-refuse') {
            return void res.writeHead(200, { 'content-type': 'application/json' }).end(refusal(body, 'unexpected_settle_error'));
          }
          res.writeHead(answer.status, answer.headers).end(answer.body);
        },
        () => req.socket.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    set(path, fault) {
      faults.set(path, fault);
      if (fault !== 'hang') {
        for (const h of held) h.res.socket?.destroy();
        held.clear();
      }
    },
    reset() {
      faults.clear();
      for (const h of held) h.res.socket?.destroy();
      held.clear();
    },
    async release(path) {
      const due = [...held].filter((h) => h.path === path);
      for (const h of due) held.delete(h);
      await Promise.all(
        due.map((h) =>
          forward(h.req, h.body).then(
            () => h.req.socket.destroy(),
            () => h.req.socket.destroy(),
          ),
        ),
      );
      return due.length;
    },
    events,
    counts,
    async close() {
      for (const h of held) h.res.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
