import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import Koa from 'koa';
import { humanlikeExpress, humanlikeKoa } from '../../../embed/host';

interface Hit {
  token: string | undefined;
  key: string | undefined;
  body: unknown;
}

// A stand-in for the service that records what reaches it and answers as the test says.
async function startFakeService(answer: (hit: Hit, n: number) => { status: number; headers?: Record<string, string>; body: unknown }) {
  const hits: Hit[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hit = { token: req.headers['x-bundle-token'] as string | undefined, key: req.headers['idempotency-key'] as string | undefined, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
      hits.push(hit);
      const a = answer(hit, hits.length);
      res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
      res.end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, close: () => closeServer(server) };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => closeServer(server) };
}

const charged = (n: number) => ({ status: 200, body: { check_id: `c${n}`, issues: [], billing: { credits_spent: 1, credits_remaining: 1000 - n, replayed: false } } });
const TOKEN = 'hlb_test-token-of-the-company';

describe('embed/host adapter', function () {
  let dir: string;
  beforeEach(function () {
    dir = mkdtempSync(path.join(tmpdir(), 'humanlike-adapter-'));
  });
  afterEach(function () {
    rmSync(dir, { recursive: true, force: true });
  });

  async function postTo(url: string, key: string, body: unknown = { draft: 'Hello there' }) {
    const res = await fetch(`${url}/humanlike/check`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify(body) });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
  }

  it('holds the spend ceiling across a restart at 499 (Koa), counting only charged answers', async function () {
    const service = await startFakeService((hit, n) => (hit.key === 'embed-replayed' ? { status: 200, headers: { 'x-payment-replayed': 'true' }, body: { issues: [], billing: { credits_spent: 0, replayed: true } } } : charged(n)));
    const file = path.join(dir, 'spend.json');
    writeFileSync(file, JSON.stringify({ spent: 498 }));
    const start = async () => {
      const app = new Koa();
      app.use(humanlikeKoa({ serviceUrl: service.url, bundleToken: TOKEN, spend: file }));
      return listen(app.callback());
    };
    try {
      let host = await start();
      // A free replay does not count; the charged answer takes it to 499.
      expect((await postTo(host.url, 'embed-replayed')).status).to.equal(200);
      expect((await postTo(host.url, 'embed-1')).status).to.equal(200);
      expect(JSON.parse(readFileSync(file, 'utf8')).spent).to.equal(499);
      await host.close();

      host = await start();
      const last = await postTo(host.url, 'embed-2');
      expect(last.status).to.equal(200);
      expect(JSON.parse(readFileSync(file, 'utf8')).spent).to.equal(500);
      const over = await postTo(host.url, 'embed-3');
      expect(over.status).to.equal(403);
      expect(over.body.error.code).to.equal('spend_ceiling_reached');
      expect(service.hits.map((h) => h.key)).to.deep.equal(['embed-replayed', 'embed-1', 'embed-2']);
      await host.close();

      host = await start();
      expect((await postTo(host.url, 'embed-4')).status).to.equal(403);
      expect(service.hits).to.have.length(3);
      await host.close();
    } finally {
      await service.close();
    }
  });

  it('refuses the 31st request in a minute itself (Express shape on plain http), and forwards with the bundle token', async function () {
    const service = await startFakeService((_hit, n) => charged(n));
    let clock = 1_000_000;
    const middleware = humanlikeExpress({ serviceUrl: service.url, bundleToken: TOKEN, spend: path.join(dir, 'spend.json'), now: () => clock });
    const host = await listen((req, res) => middleware(req, res, () => {
      res.statusCode = 404;
      res.end();
    }));
    try {
      for (let i = 1; i <= 30; i++) expect((await postTo(host.url, `embed-${i}`)).status, `request ${i}`).to.equal(200);
      const refused = await postTo(host.url, 'embed-31');
      expect(refused.status).to.equal(429);
      expect(refused.body.error.code).to.equal('host_throttled');
      expect(refused.headers.get('retry-after')).to.equal('60');
      expect(service.hits).to.have.length(30);
      expect(service.hits.every((h) => h.token === TOKEN)).to.equal(true);
      expect(service.hits[0].body).to.deep.equal({ draft: 'Hello there' });
      // A minute after the first, one more is let through.
      clock += 60_000;
      expect((await postTo(host.url, 'embed-32')).status).to.equal(200);
      expect(service.hits).to.have.length(31);
      expect((await fetch(`${host.url}/other`)).status).to.equal(404);
    } finally {
      await host.close();
      await service.close();
    }
  });

  it('passes 429 paid_capacity_busy and Retry-After through unchanged and counts no spend', async function () {
    const busy = { error: { code: 'paid_capacity_busy', message: 'busy', details: { retry_after_seconds: 3 } } };
    const service = await startFakeService(() => ({ status: 429, headers: { 'retry-after': '3' }, body: busy }));
    const file = path.join(dir, 'spend.json');
    const app = new Koa();
    app.use(humanlikeKoa({ serviceUrl: service.url, bundleToken: TOKEN, spend: file }));
    const host = await listen(app.callback());
    try {
      const res = await postTo(host.url, 'embed-busy');
      expect(res.status).to.equal(429);
      expect(res.headers.get('retry-after')).to.equal('3');
      expect(res.body).to.deep.equal(busy);
      expect(() => readFileSync(file)).to.throw();
    } finally {
      await host.close();
      await service.close();
    }
  });
});
