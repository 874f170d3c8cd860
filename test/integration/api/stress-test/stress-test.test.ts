import { expect } from 'chai';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import type { PrivateKeyAccount } from 'viem/accounts';
import { PROFILES } from '../../../../shared/profiles';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment } from '../../../helpers/x402-payments';
import { expectReplayAndReuseRefused } from '../../../helpers/paid-contract';

const RESOURCE = `${PUBLIC_BASE_URL}/api/stress-test`;
const PRICE = 180_000;
const LOYAL_PRICE = 162_000;

function request(wallet: string, extra: Record<string, unknown> = {}) {
  return {
    wallet_address: wallet,
    proposed_text: "Oh no, I'm so sorry. That's a rough week. Want me to call you tonight so we can sort out the flights together?",
    response_delay_seconds: 14,
    incoming_message: 'My flight got cancelled and my week is falling apart.',
    ...extra,
  };
}

describe('POST /api/stress-test paid with x402 (real facilitator, real chain)', function () {
  this.timeout(90_000);
  let paid: PaidStack;
  let payer: PrivateKeyAccount;

  before(async function () {
    paid = await startPaidStack('stress-test');
    payer = paid.payers[0];
  });
  after(async function () {
    await paid?.close();
  });
  beforeEach(async function () {
    await paid.stack.truncate();
  });

  async function pay(body: Record<string, unknown>, amount: number, account = payer) {
    const signed = await signPayment(account, paid.requirement(amount), RESOURCE);
    return { signed, response: await paid.stack.http.post('/api/stress-test').set('PAYMENT-SIGNATURE', signed.header).send(body) };
  }

  describe('the quote', function () {
    it('answers a GET with the 402 quote at the list price and never settles', async function () {
      const res = await paid.stack.http.get('/api/stress-test');
      expect(res.status).to.equal(402);
      expect(res.body.x402Version).to.equal(2);
      expect(res.body.resource.url).to.equal(RESOURCE);
      expect(res.body.accepts[0]).to.include({ scheme: 'exact', amount: String(PRICE) });
      expect(res.body.discount).to.equal(undefined);
      expect(decodePaymentRequiredHeader(res.headers['payment-required']).accepts[0]).to.include({ amount: String(PRICE) });
      expect(await paid.count('payment_authorizations')).to.equal(0);
    });

    it('answers a POST without payment with the same 402 quote for its wallet, and reserves nothing', async function () {
      const res = await paid.stack.http.post('/api/stress-test').send(request(payer.address));
      expect(res.status).to.equal(402);
      expect(res.body.error).to.equal('payment_required');
      expect(res.body.resource.url).to.equal(RESOURCE);
      expect(res.body.accepts[0].amount).to.equal(String(PRICE));
      expect(res.headers['payment-required']).to.be.a('string');
      expect(await paid.count('payment_authorizations')).to.equal(0);
      expect(await paid.stack.deps.stress.queue.getJobCountByTypes('waiting', 'active', 'completed', 'failed', 'delayed')).to.equal(0);
    });
  });

  describe('the catalog', function () {
    it('lists the stress test as served in the pricing manifest and documents both operations in OpenAPI', async function () {
      const pricing = await paid.stack.http.get('/api/pricing').expect(200);
      expect(pricing.body.stress_test_endpoint).to.deep.include({ available: true, quote: { method: 'GET', path: '/api/stress-test' }, price_usdc_units: PRICE });
      const doc = await paid.stack.http.get('/api/openapi.json').expect(200);
      const paths = doc.body.paths['/api/stress-test'];
      expect(paths.post.operationId).to.equal('postStressTest');
      expect(paths.post.description).to.include('mean EQ score');
      expect(paths.get.operationId).to.equal('getStressTestQuote');
    });
  });

  describe('a paid stress test', function () {
    it('delivers the weakness map with a receipt, moves exactly the price, and writes one ledger row', async function () {
      const treasury = paid.facilitator.treasury;
      const before = { payer: await paid.balanceOf(payer.address), treasury: await paid.balanceOf(treasury) };
      const { response } = await pay(request(payer.address), PRICE);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);

      const receipt = decodePaymentResponseHeader(response.headers['payment-response']);
      expect(receipt).to.include({ success: true, payer: payer.address });
      expect(receipt.transaction).to.match(/^0x[0-9a-f]{64}$/);
      expect(response.headers['x-payment-response']).to.equal(response.headers['payment-response']);
      expect(response.headers['x-payment-replayed']).to.equal(undefined);

      const body = response.body;
      expect(body.result_id).to.match(/^[0-9a-f-]{36}$/);
      expect(body.profile_count).to.equal(28);
      expect(body.profiles).to.have.length(28);
      expect(new Set(body.profiles.map((p: { profile: string }) => p.profile))).to.deep.equal(new Set(PROFILES.map((p) => p.id)));
      const scores = body.profiles.map((p: { eq_score: number }) => p.eq_score);
      expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
      const passed = body.profiles.filter((p: { passed: boolean }) => p.passed).length;
      expect(body.passed_count).to.equal(passed);
      expect(body.pass_rate).to.equal(Math.round((passed / 28) * 10_000) / 10_000);
      const mean = Math.round((scores.reduce((a: number, b: number) => a + b, 0) / 28) * 10) / 10;
      expect(body.mean_eq_score).to.equal(mean);
      expect(body.strongest).to.deep.equal(body.profiles.slice(0, 3));
      expect(body.weakest).to.deep.equal(body.profiles.slice(-3).reverse());
      expect(body.prompt_fixes.map((f: { profile: string }) => f.profile)).to.deep.equal(body.weakest.map((w: { profile: string }) => w.profile));
      expect(body.prompt_fixes[0].suggested_prompt_addition).to.be.a('string').and.not.empty;
      expect(body.prompt_fixes[0].main_gaps).to.be.an('array');
      expect(body.prompt_fixes[0].main_gaps.length).to.be.at.most(3);
      expect(body.improvement).to.be.a('string').and.include(body.weakest[0].profile);
      expect(body.referral_code).to.match(/^HL-[0-9A-Z]{8}$/);
      expect(body.payment.transaction).to.equal(receipt.transaction);

      expect(await paid.balanceOf(payer.address)).to.equal(before.payer - BigInt(PRICE));
      expect(await paid.balanceOf(treasury)).to.equal(before.treasury + BigInt(PRICE));
      const ledger = (await paid.stack.deps.dataSource.query(`SELECT * FROM ledger_sessions`)) as Array<Record<string, unknown>>;
      expect(ledger).to.have.length(1);
      expect(ledger[0]).to.include({
        product: 'stress-test',
        tier: null,
        profile: body.weakest[0].profile,
        score: mean,
        passed: passed === 28,
        result_id: body.result_id,
        transaction: receipt.transaction,
        payer: payer.address.toLowerCase(),
        amount: String(PRICE),
      });
    });

    it('replays a lost response for the same authorization and request, and answers 409 to another request', async function () {
      const body = request(payer.address);
      const other = request(payer.address, { proposed_text: 'A different reply entirely.' });
      await expectReplayAndReuseRefused(paid, '/api/stress-test', payer.address, await pay(body, PRICE), body, other);
    });

    it('quotes and charges a wallet with 10 settled paid sessions the loyalty price, naming the discount', async function () {
      const loyal = paid.payers[5];
      for (let i = 0; i < 10; i++) {
        const signed = await signPayment(loyal, paid.requirement(50_000), `${PUBLIC_BASE_URL}/api/simulate`);
        const res = await paid.stack.http
          .post('/api/simulate')
          .set('PAYMENT-SIGNATURE', signed.header)
          .send({ wallet_address: loyal.address, proposed_text: `Sure, I can look at it after lunch (${i}).`, response_delay_seconds: 30, target_profile: 'dry-witted-colleague' });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      }
      const quote = await paid.stack.http.post('/api/stress-test').send(request(loyal.address));
      expect(quote.status).to.equal(402);
      expect(quote.body.accepts[0].amount).to.equal(String(LOYAL_PRICE));
      expect(quote.body.discount).to.deep.include({ kind: 'loyalty', pct: 10, list_usdc_units: PRICE, settled_sessions: 10 });
      const get = await paid.stack.http.get('/api/stress-test').query({ wallet_address: loyal.address });
      expect(get.body.accepts[0].amount).to.equal(String(LOYAL_PRICE));

      const listPrice = await pay(request(loyal.address), PRICE, loyal);
      expect(listPrice.response.status).to.equal(402);
      expect(listPrice.response.body.error).to.equal('invalid_exact_evm_authorization_value');

      const before = await paid.balanceOf(loyal.address);
      const { response } = await pay(request(loyal.address), LOYAL_PRICE, loyal);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body.profiles).to.have.length(28);
      expect(await paid.balanceOf(loyal.address)).to.equal(before - BigInt(LOYAL_PRICE));
      const rows = (await paid.stack.deps.dataSource.query(`SELECT amount FROM ledger_sessions WHERE product = 'stress-test'`)) as Array<{ amount: string }>;
      expect(rows).to.deep.equal([{ amount: String(LOYAL_PRICE) }]);
    });
  });

  describe('bad input is refused before any payment', function () {
    it('answers 422 listing every missing field', async function () {
      const res = await paid.stack.http.post('/api/stress-test').send({});
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('validation_failed');
      const paths = res.body.error.details.fields.map((f: { path: string }) => f.path);
      expect(paths).to.include.members(['/wallet_address', '/proposed_text', '/response_delay_seconds']);
      expect(res.headers['payment-required']).to.equal(undefined);
    });

    it('answers 422 to a negative delay, even with a payment, and charges nothing', async function () {
      const before = await paid.balanceOf(payer.address);
      const { response } = await pay(request(payer.address, { response_delay_seconds: -1 }), PRICE);
      expect(response.status).to.equal(422);
      expect(response.body.error.details.fields.map((f: { path: string }) => f.path)).to.deep.equal(['/response_delay_seconds']);
      expect(await paid.count('payment_authorizations')).to.equal(0);
      expect(await paid.balanceOf(payer.address)).to.equal(before);
    });
  });
});
