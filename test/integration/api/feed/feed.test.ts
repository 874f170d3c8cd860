import http, { type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createApp } from '../../../../api/app';
import { createDeps } from '../../../../api/server';
import { createLogger } from '../../../../shared/logger';
import { feedChannel } from '../../../../shared/payments/feed';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment } from '../../../helpers/x402-payments';
import { until } from '../../../helpers/until';

interface SseClient {
  events: Array<{ event: string; data: Record<string, unknown> }>;
  next(count: number): Promise<void>;
  close(): void;
}

// A raw SSE reader: supertest buffers whole bodies, an event stream never ends.
function connect(url: string): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const events: SseClient['events'] = [];
    const waiters: Array<{ count: number; resolve: () => void }> = [];
    let buffer = '';
    const req = http.get(url, (res: IncomingMessage) => {
      expect(res.statusCode).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/event-stream/);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) as Record<string, unknown> });
        }
        for (const w of [...waiters]) if (events.length >= w.count) w.resolve();
      });
      resolve({
        events,
        next: (count) =>
          events.length >= count ? Promise.resolve() : new Promise<void>((r) => waiters.push({ count, resolve: r })),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
  });
}

describe('GET /api/feed (server-sent events over Redis pub/sub)', function () {
  this.timeout(60_000);
  let paid: PaidStack;
  const servers: Server[] = [];
  const closers: Array<() => Promise<void>> = [];

  before(async function () {
    paid = await startPaidStack('feed');
    await paid.stack.truncate();
  });
  after(async function () {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
    for (const close of closers) await close();
    await paid?.close();
  });

  async function webProcess(): Promise<string> {
    const { deps, close } = await createDeps(paid.stack.config, createLogger(paid.stack.config, 'second-web'));
    closers.push(close);
    const server = createApp(deps).listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((r) => server.once('listening', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('relays each settlement to clients of every web process, masked and without text', async function () {
    const channel = feedChannel(paid.stack.config.redis.queuePrefix);
    const subscribers = async () => Number(((await paid.stack.deps.redis.pubsub('NUMSUB', channel)) as [string, number])[1]);
    const before = await subscribers();
    const [a, b] = await Promise.all([webProcess(), webProcess()]);
    const clientA = await connect(`${a}/api/feed?recent=0`);
    const clientB = await connect(`${b}/api/feed?recent=0`);
    // Both web processes' subscriptions must have reached Redis before anything is published.
    await until(async () => (await subscribers()) >= before + 2, 10_000, 'both feed subscriptions');

    const payer = paid.payers[4];
    const text = 'Oof. Sorry about the delay on our side, I will sort the refund myself today.';
    const signed = await signPayment(payer, paid.requirement(50_000), `${PUBLIC_BASE_URL}/api/simulate`);
    const res = await paid.stack.http
      .post('/api/simulate')
      .set('PAYMENT-SIGNATURE', signed.header)
      .send({ wallet_address: payer.address, proposed_text: text, response_delay_seconds: 30, target_profile: 'grief-support-peer' });
    expect(res.status).to.equal(200);

    await Promise.all([clientA.next(1), clientB.next(1)]);
    for (const client of [clientA, clientB]) {
      const [{ event, data }] = client.events;
      expect(event).to.equal('settlement');
      expect(data).to.include({ product: 'simulate', kind: 'scored_session', label: 'Scored session', tier: 'basic', result_id: res.body.result_id, amount: '50000', network: 'eip155:8453' });
      expect(data).to.include({ score: res.body.score.eq_score, passed: res.body.score.passed });
      expect(data.payer, 'checksummed, as every public place shows a wallet').to.equal(`${payer.address.slice(0, 6)}…${payer.address.slice(-4)}`);
      const raw = JSON.stringify(data).toLowerCase();
      expect(raw).to.not.include(payer.address.toLowerCase());
      expect(raw).to.not.include(res.body.payment.transaction.toLowerCase());
      expect(raw).to.not.include('refund');
    }
    clientA.close();
    clientB.close();
  });

  it('starts with the latest settlements from the ledger', async function () {
    const url = await webProcess();
    const client = await connect(`${url}/api/feed?recent=5`);
    await client.next(1);
    expect(client.events[0].event).to.equal('settlement');
    expect(client.events[0].data.product).to.equal('simulate');
    client.close();
  });

  it('answers 422 to a bad recent parameter', async function () {
    const res = await paid.stack.http.get('/api/feed?recent=500');
    expect(res.status).to.equal(422);
  });
});
