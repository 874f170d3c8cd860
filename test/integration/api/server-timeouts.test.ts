import { connect, type Socket } from 'node:net';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { startWeb, type WebRuntime } from '../../../api/server';
import type { AppConfig } from '../../../shared/config';
import { createLogger } from '../../../shared/logger';
import { feedChannel, type FeedEvent } from '../../../shared/payments/feed';
import { testConfig } from '../../helpers/config';
import { ensureTestDatabase } from '../../helpers/db';
import { queuePrefix } from '../../helpers/redis';
import { openSse } from '../../helpers/sse-client';

const HEADERS_TIMEOUT_MS = 400;
const REQUEST_TIMEOUT_MS = 800;
const KEEP_ALIVE_TIMEOUT_MS = 400;
// The server checks its timeouts on an interval: allow for it and for a loaded machine.
const SLACK_MS = 1_500;

interface Probe {
  /** Milliseconds from connecting until the server closed the connection (undefined: still open at the deadline). */
  closedAfterMs?: number;
  received: string;
}

// A raw client that writes what `talk` writes and reports when the server hangs up.
function probe(port: number, deadlineMs: number, talk: (socket: Socket) => void): Promise<Probe> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const timers: NodeJS.Timeout[] = [];
    const deadline = setTimeout(() => {
      timers.forEach(clearInterval);
      socket.destroy();
      resolve({ received });
    }, deadlineMs);
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(deadline);
      timers.forEach(clearInterval);
      resolve({ closedAfterMs: Date.now() - started, received });
    });
    // `trickle` registers its timers here, so they stop with the probe.
    probeTimers.set(socket, timers);
    socket.on('connect', () => talk(socket));
  });
}
const probeTimers = new WeakMap<Socket, NodeJS.Timeout[]>();

function trickle(socket: Socket, text: string, everyMs: number): void {
  probeTimers.get(socket)?.push(setInterval(() => socket.write(text), everyMs));
}

describe('HTTP server timeouts', function () {
  this.timeout(30_000);
  let config: AppConfig;
  let runtime: WebRuntime;

  before(async function () {
    config = testConfig({
      DATABASE_URL: await ensureTestDatabase(),
      QUEUE_PREFIX: queuePrefix('server-timeouts'),
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      HTTP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_TIMEOUT_MS),
    });
    runtime = await startWeb(config, createLogger(config, 'test'));
  });
  after(async function () {
    await runtime?.close();
  });

  it('cuts a slowloris request (headers never finished) with 408 within the headers timeout', async function () {
    const result = await probe(runtime.port, HEADERS_TIMEOUT_MS + SLACK_MS + 2_000, (socket) => {
      socket.write('GET /api/healthz HTTP/1.1\r\nHost: humanlike.test\r\n');
      trickle(socket, 'X-Padding: still-sending\r\n', 50);
    });
    expect(result.closedAfterMs, 'the server kept the connection open').to.be.a('number');
    expect(result.closedAfterMs).to.be.at.least(HEADERS_TIMEOUT_MS - 50).and.below(HEADERS_TIMEOUT_MS + SLACK_MS);
    expect(result.received).to.match(/^HTTP\/1\.1 408 /);
  });

  it('cuts a request whose body trickles in, within the request timeout', async function () {
    const result = await probe(runtime.port, REQUEST_TIMEOUT_MS + SLACK_MS + 2_000, (socket) => {
      socket.write('POST /api/wishlist HTTP/1.1\r\nHost: humanlike.test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"text":"');
      trickle(socket, 'a', 50);
    });
    expect(result.closedAfterMs, 'the server kept the connection open').to.be.a('number');
    expect(result.closedAfterMs).to.be.at.least(REQUEST_TIMEOUT_MS - 50).and.below(REQUEST_TIMEOUT_MS + SLACK_MS);
    expect(result.received).to.match(/^HTTP\/1\.1 408 /);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async function () {
    const result = await probe(runtime.port, KEEP_ALIVE_TIMEOUT_MS + 1_000 + SLACK_MS + 2_000, (socket) => {
      socket.write('GET /api/pricing HTTP/1.1\r\nHost: humanlike.test\r\nConnection: keep-alive\r\n\r\n');
    });
    expect(result.received).to.match(/^HTTP\/1\.1 200 /);
    expect(result.closedAfterMs, 'the server kept the idle connection open').to.be.a('number');
    // Node waits a second past the timeout it announces, so the client is the one to close first.
    expect(result.closedAfterMs).to.be.below(KEEP_ALIVE_TIMEOUT_MS + 1_000 + SLACK_MS);
  });

  it('keeps a live-feed stream open and delivering well past the request timeout', async function () {
    const client = await openSse(`http://127.0.0.1:${runtime.port}/api/feed?recent=0`, { 'X-Forwarded-For': '203.0.113.70' });
    let publisher: Redis | undefined;
    try {
      expect(client.status).to.equal(200);
      await new Promise((r) => setTimeout(r, REQUEST_TIMEOUT_MS * 2 + SLACK_MS));
      expect(client.closed, 'the server closed the stream').to.equal(false);
      publisher = new Redis(config.redis.url);
      const event: FeedEvent = {
        type: 'settlement',
        ledger_id: '00000000-0000-4000-8000-000000000070',
        product: 'simulate',
        kind: 'scored_session',
        label: 'Scored session',
        tier: 'basic',
        profile: 'grief-support-peer',
        score: 80,
        passed: true,
        result_id: '00000000-0000-4000-8000-000000000071',
        network: 'eip155:8453',
        amount: '50000',
        asset: 'USDC',
        payer: '0x1234…abcd',
        transaction: '0xabcd…1234',
        settled_at: new Date().toISOString(),
      };
      await publisher.publish(feedChannel(config.redis.queuePrefix), JSON.stringify(event));
      await client.next(1);
      expect(client.events[0]).to.include({ ledger_id: event.ledger_id });
      expect(client.closed).to.equal(false);
    } finally {
      client.close();
      await publisher?.quit();
    }
  });
});
