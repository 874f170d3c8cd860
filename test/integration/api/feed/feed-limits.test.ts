import { expect } from 'chai';
import { startWeb, type WebRuntime } from '../../../../api/server';
import { createLogger } from '../../../../shared/logger';
import { testConfig } from '../../../helpers/config';
import { ensureTestDatabase } from '../../../helpers/db';
import { queuePrefix } from '../../../helpers/redis';
import { openSse, type SseConnection } from '../../../helpers/sse-client';

// A real listening server: the limits count open connections, which supertest never keeps.
describe('GET /api/feed connection limits', function () {
  this.timeout(20_000);
  let runtime: WebRuntime;
  const open: SseConnection[] = [];

  before(async function () {
    const config = testConfig({
      DATABASE_URL: await ensureTestDatabase(),
      QUEUE_PREFIX: queuePrefix('feed-limits'),
      FEED_MAX_PER_CALLER: '2',
      FEED_MAX_CONNECTIONS: '3',
    });
    runtime = await startWeb(config, createLogger(config, 'test'));
  });
  after(async function () {
    for (const c of open) c.close();
    await runtime?.close();
  });

  async function feed(forwardedFor: string): Promise<SseConnection> {
    const c = await openSse(`http://127.0.0.1:${runtime.port}/api/feed?recent=0`, { 'X-Forwarded-For': forwardedFor });
    open.push(c);
    return c;
  }

  function expectRefused(c: SseConnection, scope: 'caller' | 'total', limit: number): void {
    expect(c.status, c.body).to.equal(429);
    expect(c.headers['content-type']).to.match(/^application\/json/);
    expect(c.headers['retry-after']).to.equal('30');
    const body = JSON.parse(c.body) as { error: { code: string; details: Record<string, unknown> } };
    expect(body.error.code).to.equal('feed_connection_limit');
    expect(body.error.details).to.deep.equal({ scope, limit, retry_after_seconds: 30 });
  }

  // The server notices a dropped client asynchronously: retry until the slot is back.
  async function eventually(forwardedFor: string): Promise<SseConnection> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const c = await feed(forwardedFor);
      if (c.status === 200 || Date.now() > deadline) return c;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('admits FEED_MAX_PER_CALLER streams per caller and FEED_MAX_CONNECTIONS in all, answers 429 beyond, and frees a slot when a client leaves', async function () {
    const first = await feed('203.0.113.7');
    expect(first.status).to.equal(200);
    // The same caller written another way, as a proxy may write it.
    expect((await feed('203.0.113.7:40001')).status).to.equal(200);
    expectRefused(await feed('::ffff:cb00:7107'), 'caller', 2);

    const other = await feed('198.51.100.9');
    expect(other.status).to.equal(200);
    expectRefused(await feed('2001:db8:5::1'), 'total', 3);

    first.close();
    expect((await eventually('203.0.113.7')).status).to.equal(200);
    expectRefused(await feed('2001:db8:5::1'), 'total', 3);

    other.close();
    expect((await eventually('2001:db8:5::1')).status).to.equal(200);
    // The streams that stayed open are still live.
    expect(open.filter((c) => c.status === 200 && !c.closed)).to.have.length(3);
  });

  it('refuses a client address that is no IP address (400)', async function () {
    const c = await feed('unknown');
    expect(c.status).to.equal(400);
    expect(JSON.parse(c.body).error.code).to.equal('invalid_client_address');
  });
});
