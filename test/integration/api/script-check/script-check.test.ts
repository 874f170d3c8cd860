import { expect } from 'chai';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import type { PrivateKeyAccount } from 'viem/accounts';
import { listenToFeed, type FeedListener } from '../../../helpers/feed-listener';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment } from '../../../helpers/x402-payments';
import { expectReplayAndReuseRefused } from '../../../helpers/paid-contract';

const RESOURCE = `${PUBLIC_BASE_URL}/api/script-check`;
const PRICE = 180_000;
const LOYAL_PRICE = 162_000;

const FACTS = ['The Acme Pro Plan costs $5.00 per month.', 'Annual billing saves 50 percent.', 'Support: +1 415 555 2671, sales@acme.io', 'Pricing: https://acme.io/pricing/'];
const REPLY = 'Our Acme Pro Plan is five dollars a month, 40% off yearly. Call (415) 555-2671 or see acme.io/pricing.';

function request(wallet: string, extra: Record<string, unknown> = {}) {
  return { wallet_address: wallet, reply_text: REPLY, approved_facts: FACTS, ...extra };
}

describe('POST /api/script-check paid with x402 (real facilitator, real chain)', function () {
  this.timeout(60_000);
  let paid: PaidStack;
  let payer: PrivateKeyAccount;
  let treasury: `0x${string}`;
  let feed: FeedListener;

  before(async function () {
    paid = await startPaidStack('script-check');
    payer = paid.payers[0];
    treasury = paid.facilitator.treasury;
    feed = await listenToFeed(paid.stack.config.redis.queuePrefix);
  });
  after(async function () {
    await feed?.close();
    await paid?.close();
  });
  beforeEach(async function () {
    await paid.stack.truncate();
    feed.events.length = 0;
  });

  async function pay(body: Record<string, unknown>, amount = PRICE, account = payer) {
    const signed = await signPayment(account, paid.requirement(amount), RESOURCE);
    return { signed, response: await paid.stack.http.post('/api/script-check').set('PAYMENT-SIGNATURE', signed.header).send(body) };
  }

  describe('the quote', function () {
    it('answers a GET with the 402 quote and never settles', async function () {
      const res = await paid.stack.http.get('/api/script-check');
      expect(res.status).to.equal(402);
      expect(res.body.x402Version).to.equal(2);
      expect(res.body.resource.url).to.equal(RESOURCE);
      expect(res.body.accepts[0]).to.include({ scheme: 'exact', amount: '180000', maxAmountRequired: '180000', payTo: treasury });
      expect(decodePaymentRequiredHeader(res.headers['payment-required']).accepts[0]).to.include({ amount: '180000', asset: paid.facilitator.asset });
      expect(await paid.count('payment_authorizations')).to.equal(0);
    });

    it('answers an unpaid POST with the same 402 quote', async function () {
      const res = await paid.stack.http.post('/api/script-check').send(request(payer.address));
      expect(res.status).to.equal(402);
      expect(res.body.error).to.equal('payment_required');
      expect(res.body.accepts[0]).to.include({ amount: '180000' });
      expect(res.body).to.not.have.property('discount');
      expect(await paid.count('payment_authorizations')).to.equal(0);
    });
  });

  describe('validation (422 before any payment)', function () {
    async function fieldsOf(body: Record<string, unknown>) {
      const res = await paid.stack.http.post('/api/script-check').send(body);
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body.error.code).to.equal('validation_failed');
      return { message: res.body.error.message as string, paths: (res.body.error.details.fields as Array<{ path: string; rule: string }>).map((f) => `${f.path} ${f.rule}`) };
    }

    it('refuses a request with neither approved_facts nor source_text', async function () {
      const { message, paths } = await fieldsOf({ wallet_address: payer.address, reply_text: REPLY });
      expect(paths).to.include.members(['/approved_facts required', '/source_text required', ' anyOf']);
      expect(message).to.equal('Send approved_facts, source_text or both: the reply is checked against them; see details.fields.');
    });

    it('refuses missing wallet_address and reply_text', async function () {
      const { paths } = await fieldsOf({ approved_facts: FACTS });
      expect(paths).to.have.members(['/wallet_address required', '/reply_text required']);
    });

    it('refuses a malformed wallet, a blank reply, empty facts and a blank source text', async function () {
      const { paths } = await fieldsOf({ wallet_address: 'nope', reply_text: '   ', approved_facts: [], source_text: '' });
      expect(paths).to.include.members(['/wallet_address pattern', '/reply_text pattern', '/approved_facts minItems', '/source_text minLength']);
    });

    it('refuses facts that are not strings, and unknown fields', async function () {
      const { paths } = await fieldsOf({ wallet_address: payer.address, reply_text: REPLY, approved_facts: ['ok', 5], target_profile: 'x' });
      expect(paths).to.include.members(['/approved_facts/1 type', '/target_profile additionalProperties']);
    });
  });

  describe('a paid check', function () {
    it('flags every claim with exact offsets, moves exactly the price, and writes the receipt, the ledger row and the feed event', async function () {
      const before = { payer: await paid.balanceOf(payer.address), treasury: await paid.balanceOf(treasury) };
      const { response } = await pay(request(payer.address));
      expect(response.status, JSON.stringify(response.body)).to.equal(200);

      const receipt = decodePaymentResponseHeader(response.headers['payment-response']);
      expect(receipt).to.include({ success: true, network: 'eip155:8453', payer: payer.address });
      expect(receipt.transaction).to.match(/^0x[0-9a-f]{64}$/);
      expect(response.headers['x-payment-response']).to.equal(response.headers['payment-response']);
      expect(await paid.balanceOf(payer.address)).to.equal(before.payer - BigInt(PRICE));
      expect(await paid.balanceOf(treasury)).to.equal(before.treasury + BigInt(PRICE));

      const body = response.body;
      expect(body.result_id).to.match(/^[0-9a-f-]{36}$/);
      expect(body.method).to.equal('string_and_number_matching');
      expect(body.method_note).to.contain('not factual-accuracy detection');
      expect(body.claims.map((c: { kind: string; text: string; start: number; end: number; on_script: boolean }) => [c.kind, c.text, c.start, c.end, c.on_script])).to.deep.equal([
        ['product', 'Acme Pro Plan', 4, 17, true],
        ['price', 'five dollars', 21, 33, true],
        ['percentage', '40%', 43, 46, false],
        ['phone', '(415) 555-2671', 64, 78, true],
        ['url', 'acme.io/pricing', 86, 101, true],
      ]);
      expect(body).to.include({ adherence_score: 80, claims_checked: 5, on_script: 4, off_script: 1 });
      expect(body.claims[2].approved_alternatives).to.deep.equal(['50 percent']);
      expect(body.claims[3].matched).to.deep.equal({ from: 'approved_facts', index: 2, start: 9, end: 24, text: '+1 415 555 2671' });
      expect(body.improvement).to.equal('Off script: the percentage "40%" at 43-46; rephrase it from the approved facts (the approved percentage is "50 percent").');
      expect(body.referral_code).to.match(/^HL-[0-9A-Z]{8}$/);
      expect(body.reward_bundle_tokens).to.deep.equal([]);
      expect(body.payment.transaction).to.equal(receipt.transaction);

      const ledger = (await paid.stack.deps.dataSource.query(`SELECT * FROM ledger_sessions`)) as Array<Record<string, unknown>>;
      expect(ledger).to.have.length(1);
      expect(ledger[0]).to.include({
        product: 'script-check',
        tier: null,
        profile: null,
        score: 80,
        passed: null,
        result_id: body.result_id,
        transaction: receipt.transaction,
        payer: payer.address.toLowerCase(),
        amount: '180000',
      });
      const [event] = await feed.waitFor(1);
      // An adherence figure is not an EQ score: the feed shows the check as what it is.
      expect(event).to.include({ type: 'settlement', product: 'script-check', kind: 'analysis', result_id: body.result_id, amount: '180000', score: null });
      // The live feed masks the payer and the transaction.
      expect(event.payer).to.not.equal(payer.address.toLowerCase());
      expect(event.transaction).to.not.equal(receipt.transaction);
    });

    it('checks against source_text alone', async function () {
      const { response } = await pay({ wallet_address: payer.address, reply_text: 'Mail help@acme.io for the $5 plan.', source_text: 'Plan: 5.00 USD. Mail sales@acme.io.' });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body.claims.map((c: { text: string; on_script: boolean }) => [c.text, c.on_script])).to.deep.equal([
        ['help@acme.io', false],
        ['$5', true],
      ]);
      expect(response.body.claims[1].matched).to.deep.equal({ from: 'source_text', start: 6, end: 14, text: '5.00 USD' });
      expect(response.body.adherence_score).to.equal(50);
    });

    it('replays a lost response for the same authorization and request without a second charge, and answers 409 to another request', async function () {
      const body = request(payer.address);
      const other = request(payer.address, { reply_text: 'A different reply for $9.' });
      await expectReplayAndReuseRefused(paid, '/api/script-check', payer.address, await pay(body), body, other);
    });

    it('quotes and charges a loyal wallet (10 settled paid sessions) 10 percent less, and says so', async function () {
      this.timeout(120_000);
      const loyal = paid.payers[3];
      for (let i = 0; i < 10; i++) {
        const { response } = await pay({ wallet_address: loyal.address, reply_text: `Call (415) 555-2671, ticket ${i}.`, approved_facts: FACTS }, PRICE, loyal);
        expect(response.status, JSON.stringify(response.body)).to.equal(200);
      }
      const quote = await paid.stack.http.post('/api/script-check').send(request(loyal.address));
      expect(quote.status).to.equal(402);
      expect(quote.body.accepts[0].amount).to.equal(String(LOYAL_PRICE));
      expect(quote.body.discount).to.deep.include({ kind: 'loyalty', pct: 10, list_usdc_units: PRICE, settled_sessions: 10 });
      // The GET quote names no wallet: the list price.
      expect((await paid.stack.http.get('/api/script-check')).body.accepts[0].amount).to.equal(String(PRICE));

      const before = await paid.balanceOf(loyal.address);
      const { response } = await pay(request(loyal.address), LOYAL_PRICE, loyal);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(await paid.balanceOf(loyal.address)).to.equal(before - BigInt(LOYAL_PRICE));
      const rows = (await paid.stack.deps.dataSource.query(`SELECT amount FROM ledger_sessions WHERE result_id = $1`, [response.body.result_id])) as Array<{ amount: string }>;
      expect(rows).to.deep.equal([{ amount: String(LOYAL_PRICE) }]);
    });
  });
});
