import { expect } from 'chai';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import type { PrivateKeyAccount } from 'viem/accounts';
import { seedLedgerRow, seedLedgerSessions } from '../../../helpers/ledger-seed';
import { listenToFeed } from '../../../helpers/feed-listener';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment } from '../../../helpers/x402-payments';
import { expectReplayAndReuseRefused } from '../../../helpers/paid-contract';

const RESOURCE = `${PUBLIC_BASE_URL}/api/progress`;
const PRICE = 180_000;
const LOYAL_PRICE = 162_000;
const GRIEF = 'grief-support-peer';
const TARGETS = { empathy: { target: 0.6, tolerance: 0.1 }, formality: { target: 0.4, tolerance: 0.1 } };

// Scores of the 28 sessions on the main profile: 52..79, with one failure (60) at index 23.
const MAIN_SCORES = Array.from({ length: 28 }, (_, i) => (i === 23 ? 60 : 52 + i));

describe('POST /api/progress (paid, on the exports queue)', function () {
  this.timeout(90_000);
  let paid: PaidStack;
  let loyal: PrivateKeyAccount;
  let newcomer: PrivateKeyAccount;

  before(async function () {
    paid = await startPaidStack('progress');
    loyal = paid.payers[0];
    newcomer = paid.payers[1];
  });
  after(async function () {
    await paid?.close();
  });
  beforeEach(async function () {
    await paid.stack.truncate();
  });

  // A history of 30 sessions: 2 early ones on another profile (before targets were recorded),
  // then 28 on the main profile whose formality drifts out of its frozen band halfway.
  async function seedHistory() {
    const ds = paid.stack.deps.dataSource;
    const wallet = loyal.address.toLowerCase();
    await seedLedgerSessions(ds, { payer: wallet, profile: 'dry-witted-colleague', scores: [40, 45], tag: 'early', start: new Date('2025-12-01T00:00:00Z') });
    await seedLedgerSessions(ds, {
      payer: wallet,
      profile: GRIEF,
      scores: MAIN_SCORES,
      targets: TARGETS,
      measured: (i) => ({ empathy: 0.6, formality: i < 14 ? 0.42 : 0.62 }),
      tag: 'main',
    });
    // Three other bots on the main profile: averages 50 and 60 (below) and 90 (above).
    for (const [n, score] of [[1, 50], [2, 60], [3, 90]] as const) {
      await seedLedgerSessions(ds, { payer: `0x${String(n).repeat(40)}`, profile: GRIEF, scores: [score], tag: `peer${n}` });
    }
  }

  async function pay(account: PrivateKeyAccount, amount: number, body: Record<string, unknown> = { wallet_address: account.address }) {
    const signed = await signPayment(account, paid.requirement(amount), RESOURCE);
    return { signed, response: await paid.stack.http.post('/api/progress').set('PAYMENT-SIGNATURE', signed.header).send(body) };
  }

  describe('the quote', function () {
    it('answers a GET with the 402 quote, says it is paid either way, and never settles', async function () {
      const res = await paid.stack.http.get('/api/progress');
      expect(res.status).to.equal(402);
      expect(res.body.resource.url).to.equal(RESOURCE);
      expect(res.body.accepts[0]).to.include({ amount: String(PRICE) });
      expect(res.body.resource.description).to.match(/Paid either way: a wallet with no scored session gets an empty report/);
      expect(decodePaymentRequiredHeader(res.headers['payment-required']).accepts[0].amount).to.equal(String(PRICE));
      expect(await paid.count('payment_authorizations')).to.equal(0);
    });

    it('quotes an unpaid POST for its wallet: the list price, or 10 percent off for a loyal wallet', async function () {
      const plain = await paid.stack.http.post('/api/progress').send({ wallet_address: newcomer.address });
      expect(plain.status).to.equal(402);
      expect(plain.body.accepts[0].amount).to.equal(String(PRICE));
      expect(plain.body.resource.description).to.include('Paid either way');
      expect(plain.body).to.not.have.property('discount');

      await seedHistory();
      const discounted = await paid.stack.http.post('/api/progress').send({ wallet_address: loyal.address });
      expect(discounted.status).to.equal(402);
      expect(discounted.body.accepts[0].amount).to.equal(String(LOYAL_PRICE));
      expect(discounted.body.discount).to.deep.include({ kind: 'loyalty', pct: 10, settled_sessions: 30 });
      expect(await paid.count('payment_authorizations')).to.equal(30 + 3);
    });

    it('answers 422 before any payment: missing wallet, bad wallet, bad history_limit, unknown field', async function () {
      const missing = await paid.stack.http.post('/api/progress').send({});
      expect(missing.status).to.equal(422);
      expect(missing.body.error.details.fields.map((f: { path: string }) => f.path)).to.include('/wallet_address');
      const bad = await paid.stack.http.post('/api/progress').send({ wallet_address: 'nope', history_limit: 0, extra: 1 });
      expect(bad.status).to.equal(422);
      expect(bad.body.error.details.fields.map((f: { path: string }) => f.path)).to.include.members(['/wallet_address', '/history_limit']);
      expect(bad.body.error.details.fields.some((f: { rule: string }) => f.rule === 'additionalProperties')).to.equal(true);
      expect(await paid.count('payment_authorizations')).to.equal(0);
    });
  });

  describe('a paid report', function () {
    it('gives a wallet with no history a clear empty report, still paid, with receipt, ledger row and feed event', async function () {
      const feed = await listenToFeed(paid.stack.config.redis.queuePrefix);
      try {
        const treasury = paid.facilitator.treasury;
        const before = { payer: await paid.balanceOf(newcomer.address), treasury: await paid.balanceOf(treasury) };
        const { response } = await pay(newcomer, PRICE);
        expect(response.status, JSON.stringify(response.body)).to.equal(200);
        const receipt = decodePaymentResponseHeader(response.headers['payment-response']);
        expect(receipt).to.include({ success: true, payer: newcomer.address });
        const body = response.body;
        expect(body).to.include({ empty: true, main_profile: null, trend: null, percentile: null });
        expect(body.sessions).to.deep.equal({ total: 0, in_report: 0, window: 1000 });
        expect(body.history).to.deep.equal([]);
        expect(body.pass_streak).to.deep.equal({ current: 0, best: 0 });
        expect(body.dimension_gaps).to.deep.equal({});
        expect(body.style_drift).to.include({ sessions_checked: 0, consistency_rate: null });
        expect(body.not_a_factual_accuracy_check).to.match(/not a factual-accuracy check/);
        expect(body.improvement).to.match(/No scored session yet/);
        expect(body.charts).to.deep.equal({ trend_svg: null, dimension_gaps_svg: null });
        expect(body.referral_code).to.match(/^HL-[0-9A-Z]{8}$/);
        expect(body.payment.transaction).to.equal(receipt.transaction);

        expect(await paid.balanceOf(newcomer.address)).to.equal(before.payer - BigInt(PRICE));
        expect(await paid.balanceOf(treasury)).to.equal(before.treasury + BigInt(PRICE));
        const ledger = (await paid.stack.deps.dataSource.query(`SELECT * FROM ledger_sessions`)) as Array<Record<string, unknown>>;
        expect(ledger).to.have.length(1);
        expect(ledger[0]).to.include({ product: 'progress', tier: null, amount: String(PRICE), transaction: receipt.transaction, score: null, training_text: null });
        expect(ledger[0].payer).to.equal(newcomer.address.toLowerCase());
        const [event] = await feed.waitFor(1);
        expect(event).to.include({ product: 'progress', amount: String(PRICE) });
      } finally {
        await feed.close();
      }
    });

    it('reports 30 sessions: history, trend, pass streak, percentile, gaps and style drift against the frozen targets', async function () {
      await seedHistory();
      const before = await paid.balanceOf(loyal.address);
      const { response } = await pay(loyal, LOYAL_PRICE);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(await paid.balanceOf(loyal.address)).to.equal(before - BigInt(LOYAL_PRICE));
      const body = response.body;

      expect(body.empty).to.equal(false);
      expect(body.sessions).to.deep.equal({ total: 30, in_report: 30, window: 1000 });
      expect(body.main_profile).to.equal(GRIEF);
      expect(body.history).to.have.length(30);
      expect(body.history[0]).to.include({ profile: 'dry-witted-colleague', eq_score: 40, passed: false, product: 'simulate' });
      expect(body.history.map((h: { eq_score: number }) => h.eq_score)).to.deep.equal([40, 45, ...MAIN_SCORES]);
      expect(body.trend.direction).to.equal('improving');
      expect(body.trend.slope_per_session).to.be.above(0.5);
      expect(body.trend).to.include({ first_average: 48.8, last_average: 74, compared: 5 });
      expect(body.pass_streak).to.deep.equal({ current: 4, best: 5 });
      expect(body.percentile).to.include({ profile: GRIEF, value: 66.7, other_bots: 3 });
      expect(body.dimension_gaps).to.deep.equal({
        empathy: { mean_gap: 0, mean_abs_gap: 0, sessions: 28 },
        formality: { mean_gap: 0.12, mean_abs_gap: 0.12, sessions: 28 },
      });
      expect(body.style_drift).to.include({ sessions_checked: 28, sessions_without_targets: 2, consistent_sessions: 14, consistency_rate: 0.5 });
      expect(body.style_drift.per_dimension).to.deep.equal({ empathy: { out_of_band: 0, rate: 0 }, formality: { out_of_band: 14, rate: 0.5 } });
      expect(body.style_drift.drifting_dimensions).to.deep.equal(['formality']);
      expect(body.not_a_factual_accuracy_check).to.match(/not a factual-accuracy check/);
      expect(body.improvement).to.match(/above the formality target by 0\.12/);
      // The same report as pictures: one point per session of history, one bar per dimension.
      expect(body.charts.trend_svg).to.match(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" /);
      expect(body.charts.trend_svg.match(/<circle /g)).to.have.length(30);
      expect(body.charts.trend_svg).to.include('<title>EQ score per session: improving (+');
      expect(body.charts.dimension_gaps_svg.match(/<rect data-dimension="(\w+)"/g)).to.deep.equal(['<rect data-dimension="empathy"', '<rect data-dimension="formality"']);
      expect(body.charts.dimension_gaps_svg).to.include('>+0.12</text>');

      const rows = (await paid.stack.deps.dataSource.query(`SELECT product, amount::text AS amount FROM ledger_sessions WHERE product = 'progress'`)) as Array<Record<string, unknown>>;
      expect(rows).to.deep.equal([{ product: 'progress', amount: String(LOYAL_PRICE) }]);
    });

    it('reads only scored sessions: a newer stress test, script check and rewrite change no history, trend or percentile', async function () {
      await seedHistory();
      const ds = paid.stack.deps.dataSource;
      const wallet = loyal.address.toLowerCase();
      await seedLedgerRow(ds, { payer: wallet, product: 'stress-test', profile: GRIEF, score: 17.1, passed: false, amount: PRICE });
      await seedLedgerRow(ds, { payer: wallet, product: 'script-check', score: 75, amount: PRICE });
      await seedLedgerRow(ds, { payer: wallet, product: 'rewrite', profile: GRIEF, score: 12, passed: false, amount: PRICE });
      const { response } = await pay(loyal, LOYAL_PRICE);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      const body = response.body;
      expect(body.sessions).to.deep.equal({ total: 30, in_report: 30, window: 1000 });
      expect(body.history.map((h: { product: string }) => h.product)).to.deep.equal(Array(30).fill('simulate'));
      expect(body.history.map((h: { eq_score: number }) => h.eq_score)).to.deep.equal([40, 45, ...MAIN_SCORES]);
      expect(body.trend).to.include({ direction: 'improving', first_average: 48.8, last_average: 74 });
      expect(body.pass_streak).to.deep.equal({ current: 4, best: 5 });
      expect(body.percentile).to.include({ profile: GRIEF, value: 66.7, other_bots: 3 });
    });

    it('lists only the newest history_limit sessions', async function () {
      await seedHistory();
      const { response } = await pay(loyal, LOYAL_PRICE, { wallet_address: loyal.address, history_limit: 10 });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body.history_limit).to.equal(10);
      expect(response.body.history.map((h: { eq_score: number }) => h.eq_score)).to.deep.equal(MAIN_SCORES.slice(-10));
      expect(response.body.sessions.in_report).to.equal(30);
    });

    it('replays the same report for the same authorization without a second charge, and answers 409 to another request', async function () {
      const body = { wallet_address: newcomer.address };
      await expectReplayAndReuseRefused(paid, '/api/progress', newcomer.address, await pay(newcomer, PRICE), body, { ...body, history_limit: 5 });
    });
  });
});
