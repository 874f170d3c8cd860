import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'chai';
import { decodePaymentResponseHeader } from '@x402/core/http';
import type { PrivateKeyAccount } from 'viem/accounts';
import { createApp } from '../../../../api/app';
import { seedLedgerSessions } from '../../../helpers/ledger-seed';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment } from '../../../helpers/x402-payments';

const RESOURCE = `${PUBLIC_BASE_URL}/api/training-dataset`;
const PRICE = 180_000;
const LOYAL_PRICE = 162_000;
const GRIEF = 'grief-support-peer';
const TARGETS = { empathy: { target: 0.6, tolerance: 0.1 }, formality: { target: 0.4, tolerance: 0.1 } };

type Line = Record<string, unknown> & { record_type: string };

// supertest buffers only the types it knows; JSON Lines is read as text and split here.
function jsonLines(res: unknown, done: (err: Error | null, body: unknown) => void) {
  const stream = res as NodeJS.ReadableStream;
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (text += chunk));
  stream.on('end', () => done(null, text));
}
const parseLines = (text: string): Line[] => text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);

describe('POST /api/training-dataset (paid, JSON or JSON Lines, on the exports queue)', function () {
  this.timeout(120_000);
  let paid: PaidStack;
  let loyal: PrivateKeyAccount;
  let newcomer: PrivateKeyAccount;

  before(async function () {
    paid = await startPaidStack('training-dataset');
    loyal = paid.payers[0];
    newcomer = paid.payers[1];
  });
  after(async function () {
    await paid?.close();
  });
  beforeEach(async function () {
    await paid.stack.truncate();
  });

  async function post(account: PrivateKeyAccount, header: string, body: Record<string, unknown> = { wallet_address: account.address }) {
    return paid.stack.http.post('/api/training-dataset').set('PAYMENT-SIGNATURE', header).set('Accept', 'application/jsonl').send(body).buffer(true).parse(jsonLines);
  }
  async function pay(account: PrivateKeyAccount, amount: number, body?: Record<string, unknown>) {
    const signed = await signPayment(account, paid.requirement(amount), RESOURCE);
    return { signed, response: await post(account, signed.header, body) };
  }

  describe('the quote', function () {
    it('answers a GET and an unpaid POST with the 402 quote (the loyal wallet at 10 percent off), never settling', async function () {
      const get = await paid.stack.http.get('/api/training-dataset');
      expect(get.status).to.equal(402);
      expect(get.body.resource.url).to.equal(RESOURCE);
      expect(get.body.accepts[0].amount).to.equal(String(PRICE));
      const plain = await paid.stack.http.post('/api/training-dataset').send({ wallet_address: newcomer.address });
      expect(plain.status).to.equal(402);
      expect(plain.body.accepts[0].amount).to.equal(String(PRICE));
      await seedLedgerSessions(paid.stack.deps.dataSource, { payer: loyal.address.toLowerCase(), profile: GRIEF, scores: Array(10).fill(80) });
      const loyalQuote = await paid.stack.http.post('/api/training-dataset').send({ wallet_address: loyal.address });
      expect(loyalQuote.body.accepts[0].amount).to.equal(String(LOYAL_PRICE));
      expect(loyalQuote.body.discount).to.deep.include({ kind: 'loyalty', pct: 10 });
      expect(await paid.count('payment_authorizations')).to.equal(10);
    });

    it('answers 422 before any payment: missing wallet, non-boolean include_text', async function () {
      const missing = await paid.stack.http.post('/api/training-dataset').send({ include_text: 'yes' });
      expect(missing.status).to.equal(422);
      expect(missing.body.error.details.fields.map((f: { path: string }) => f.path)).to.include.members(['/wallet_address', '/include_text']);
      expect(await paid.count('payment_authorizations')).to.equal(0);
    });
  });

  describe('a paid export', function () {
    it('exports an empty history as a manifest and an end line, still paid, with receipt and ledger row', async function () {
      const before = await paid.balanceOf(newcomer.address);
      const { response } = await pay(newcomer, PRICE);
      expect(response.status).to.equal(200);
      expect(response.headers['content-type']).to.match(/^application\/jsonl/);
      const receipt = decodePaymentResponseHeader(response.headers['payment-response']);
      expect(receipt).to.include({ success: true, payer: newcomer.address });
      const lines = parseLines(response.body as string);
      expect(lines).to.have.length(2);
      expect(lines[0]).to.include({ record_type: 'manifest', format: 'humanlike.training-dataset.v1', records: 0, high_water_mark: null, include_text: true });
      expect(lines[0].improvement).to.match(/No scored session yet/);
      expect(lines[0].referral_code).to.match(/^HL-[0-9A-Z]{8}$/);
      expect((lines[0].payment as { transaction: string }).transaction).to.equal(receipt.transaction);
      expect(lines[1]).to.deep.equal({ record_type: 'end', records: 0 });
      expect(await paid.balanceOf(newcomer.address)).to.equal(before - BigInt(PRICE));
      const ledger = (await paid.stack.deps.dataSource.query(`SELECT product, amount::text AS amount, transaction FROM ledger_sessions`)) as Array<Record<string, unknown>>;
      expect(ledger).to.deep.equal([{ product: 'training-dataset', amount: String(PRICE), transaction: receipt.transaction }]);
    });

    it('exports 30 sessions in ledger order with targets, gaps and only the consented texts; a replay streams the same rows', async function () {
      const ds = paid.stack.deps.dataSource;
      const wallet = loyal.address.toLowerCase();
      const scores = Array.from({ length: 30 }, (_, i) => 50 + i);
      await seedLedgerSessions(ds, {
        payer: wallet,
        profile: GRIEF,
        scores,
        targets: TARGETS,
        measured: (i) => ({ empathy: 0.5, formality: i < 15 ? 0.4 : 0.65 }),
        text: (i) => (i % 2 === 0 ? `reply number ${i}` : null),
      });
      await seedLedgerSessions(ds, { payer: `0x${'7'.repeat(40)}`, profile: GRIEF, scores: [99], tag: 'other' });
      const before = await paid.balanceOf(loyal.address);
      const { signed, response } = await pay(loyal, LOYAL_PRICE);
      expect(response.status).to.equal(200);
      expect(await paid.balanceOf(loyal.address)).to.equal(before - BigInt(LOYAL_PRICE));
      const lines = parseLines(response.body as string);
      expect(lines).to.have.length(32);
      expect(lines[0]).to.include({ record_type: 'manifest', records: 30 });
      const sessions = lines.slice(1, 31);
      expect(sessions.map((s) => s.record_type)).to.deep.equal(Array(30).fill('session'));
      expect(sessions.map((s) => s.index)).to.deep.equal(Array.from({ length: 30 }, (_, i) => i));
      expect(sessions.map((s) => (s.metrics as { eq_score: number }).eq_score)).to.deep.equal(scores);
      expect(sessions.map((s) => s.text)).to.deep.equal(scores.map((_, i) => (i % 2 === 0 ? `reply number ${i}` : null)));
      expect(sessions.map((s) => s.text_stored)).to.deep.equal(scores.map((_, i) => i % 2 === 0));
      expect(sessions[0]).to.deep.include({ profile: GRIEF, product: 'simulate', persona_targets: TARGETS, measured: { empathy: 0.5, formality: 0.4 } });
      expect(sessions[0].gaps).to.deep.equal({ empathy: -0.1, formality: 0 });
      expect(sessions[29].gaps).to.deep.equal({ empathy: -0.1, formality: 0.25 });
      expect(lines[31]).to.deep.equal({ record_type: 'end', records: 30 });

      // A session settled after the payment is past the high-water mark: the replay streams the same rows.
      await seedLedgerSessions(ds, { payer: wallet, profile: GRIEF, scores: [10], tag: 'later', start: new Date(Date.now() + 60_000) });
      const again = await post(loyal, signed.header);
      expect(again.status).to.equal(200);
      expect(again.headers['x-payment-replayed']).to.equal('true');
      expect(again.body).to.equal(response.body);

      const other = await paid.stack.http.post('/api/training-dataset').set('PAYMENT-SIGNATURE', signed.header).send({ wallet_address: loyal.address, include_text: false });
      expect(other.status).to.equal(409);
      expect(other.body.error.code).to.equal('payment_already_used');
      expect(await paid.balanceOf(loyal.address)).to.equal(before - BigInt(LOYAL_PRICE));
      const exports = (await ds.query(`SELECT count(*)::int AS n FROM ledger_sessions WHERE product = 'training-dataset'`)) as Array<{ n: number }>;
      expect(exports[0].n).to.equal(1);
    });

    it('answers one JSON document by default, the same records JSON Lines gives when Accept asks for it', async function () {
      await seedLedgerSessions(paid.stack.deps.dataSource, { payer: newcomer.address.toLowerCase(), profile: GRIEF, scores: [60, 61, 62], targets: TARGETS, text: () => 'kept' });
      const signed = await signPayment(newcomer, paid.requirement(PRICE), RESOURCE);
      const json = await paid.stack.http.post('/api/training-dataset').set('PAYMENT-SIGNATURE', signed.header).send({ wallet_address: newcomer.address });
      expect(json.status).to.equal(200);
      expect(json.headers['content-type']).to.match(/^application\/json;/);
      expect(json.headers.vary).to.match(/Accept/i);
      // Each delivery names the media type it is sent in.
      expect(json.body).to.include({ format: 'humanlike.training-dataset.v1', records: 3, content_type: 'application/json' });
      expect(json.body).to.not.have.property('record_type');
      const sessions = json.body.sessions as Line[];
      expect(sessions.map((r) => (r.metrics as { eq_score: number }).eq_score)).to.deep.equal([60, 61, 62]);

      // The replay of the same payment as JSON Lines: the same manifest and the same records.
      const lines = parseLines((await post(newcomer, signed.header)).body as string);
      expect(lines.map((l) => l.record_type)).to.deep.equal(['manifest', 'session', 'session', 'session', 'end']);
      const { record_type: _type, ...manifest } = lines[0];
      const { sessions: _sessions, ...jsonManifest } = json.body as Record<string, unknown>;
      expect(manifest).to.deep.equal({ ...jsonManifest, content_type: 'application/jsonl' });
      expect(lines.slice(1, 4)).to.deep.equal(sessions);
    });

    it('leaves every text out with include_text: false', async function () {
      await seedLedgerSessions(paid.stack.deps.dataSource, { payer: newcomer.address.toLowerCase(), profile: GRIEF, scores: [70, 71], text: () => 'kept' });
      const { response } = await pay(newcomer, PRICE, { wallet_address: newcomer.address, include_text: false });
      expect(response.status).to.equal(200);
      const sessions = parseLines(response.body as string).filter((l) => l.record_type === 'session');
      expect(sessions.map((s) => [s.text, s.text_stored])).to.deep.equal([
        [null, true],
        [null, true],
      ]);
    });
  });

  describe('5,000 sessions', function () {
    const N = 5_000;
    const TEXT_CHARS = 4_000;
    let gc: () => void;
    let server: Server;
    let fullLoadBytes = 0;

    // Buffers count too: a stream without backpressure would pile the export up in the response's buffers.
    const heapAfterGc = () => {
      gc();
      const { heapUsed, external } = process.memoryUsage();
      return heapUsed + external;
    };

    before(async function () {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
      server = createServer(createApp(paid.stack.deps).callback());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    after(async function () {
      await new Promise<void>((resolve) => server?.close(() => resolve()));
    });

    beforeEach(async function () {
      // beforeEach of the outer describe truncated: seed the 5,000 rows directly in SQL.
      await seedLedgerSessions(paid.stack.deps.dataSource, {
        payer: loyal.address.toLowerCase(),
        profile: GRIEF,
        scores: Array.from({ length: N }, (_, i) => i % 100),
        targets: TARGETS,
        measured: () => ({ empathy: 0.55, formality: 0.45 }),
        text: (i) => `${String(i).padStart(5, '0')} ${'x'.repeat(TEXT_CHARS)}`,
        tag: 'bulk',
      });
      // What holding the whole history costs this process: the bar the stream must stay far below.
      gc();
      const base = process.memoryUsage().heapUsed;
      let all: unknown[] | null = (await paid.stack.deps.dataSource.query(`SELECT * FROM ledger_sessions WHERE payer = $1`, [loyal.address.toLowerCase()])) as unknown[];
      gc();
      // The rows' strings live on the heap.
      fullLoadBytes = process.memoryUsage().heapUsed - base;
      expect(all).to.have.length(N);
      all = null;
    });

    it('streams every record in ledger order while the heap stays flat', async function () {
      expect(fullLoadBytes).to.be.above(N * TEXT_CHARS);
      const port = (server.address() as AddressInfo).port;
      // Warm up every path of a paid export (connections, compiled code) with an empty one, so the
      // baseline holds what any export costs once and the peak only what this history adds.
      const warm = await signPayment(newcomer, paid.requirement(PRICE), RESOURCE);
      const warmUp = await post(newcomer, warm.header);
      expect(warmUp.status).to.equal(200);
      const signed = await signPayment(loyal, paid.requirement(LOYAL_PRICE), RESOURCE);
      const base = heapAfterGc();
      let peak = 0;
      const samples: number[] = [];
      let sessions = 0;
      let inOrder = true;
      let lastKey = '';
      let manifest: Line | undefined;
      let end: Line | undefined;
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port, path: '/api/training-dataset', method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/jsonl', 'PAYMENT-SIGNATURE': signed.header } },
          (res) => {
            let rest = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              const parts = (rest + chunk).split('\n');
              rest = parts.pop() ?? '';
              for (const part of parts) {
                const line = JSON.parse(part) as Line;
                if (line.record_type === 'manifest') manifest = line;
                else if (line.record_type === 'end') end = line;
                else {
                  // Text starts with the seed index, so text order is ledger order.
                  const key = (line.text as string).slice(0, 5);
                  if (line.index !== sessions || key <= lastKey) inOrder = false;
                  lastKey = key;
                  sessions += 1;
                  if (sessions % 250 === 0) {
                    samples.push(heapAfterGc() - base);
                    peak = Math.max(peak, samples[samples.length - 1]);
                  }
                }
              }
            });
            res.on('end', () => resolve(res.statusCode ?? 0));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ wallet_address: loyal.address }));
      });
      expect(status).to.equal(200);
      expect(manifest).to.include({ records: N });
      expect(sessions).to.equal(N);
      expect(inOrder).to.equal(true);
      expect(lastKey).to.equal(String(N - 1).padStart(5, '0'));
      expect(end).to.deep.equal({ record_type: 'end', records: N });
      expect(peak, `peak ${peak} bytes above the baseline (samples ${samples.join(',')}); the whole history costs ${fullLoadBytes}`).to.be.below(fullLoadBytes / 2);
    });
  });
});
