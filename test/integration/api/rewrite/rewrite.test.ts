import { expect } from 'chai';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import type { PrivateKeyAccount } from 'viem/accounts';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment } from '../../../helpers/x402-payments';
import { expectReplayAndReuseRefused } from '../../../helpers/paid-contract';

const PATH = '/api/rewrite';
const RESOURCE = `${PUBLIC_BASE_URL}${PATH}`;
const PRICE = 180_000;
// Canned assistant phrases a terse engineer would never type: the rewrite must delete them.
const REPLY =
  'Certainly! It is important to note that you should restart the server after the deploy. I hope this helps! Let me know if you have any other questions.';

function request(wallet: string, extra: Record<string, unknown> = {}) {
  return { wallet_address: wallet, proposed_text: REPLY, response_delay_seconds: 20, target_profile: 'terse-senior-engineer', incoming_message: 'deploy is stuck, what now?', ...extra };
}

describe('POST /api/rewrite paid with x402 (real facilitator, real chain)', function () {
  this.timeout(60_000);
  let paid: PaidStack;
  let payer: PrivateKeyAccount;
  let treasury: `0x${string}`;

  before(async function () {
    paid = await startPaidStack('rewrite-paid');
    payer = paid.payers[0];
    treasury = paid.facilitator.treasury;
  });
  after(async function () {
    await paid?.close();
  });
  beforeEach(async function () {
    await paid.stack.truncate();
  });

  async function pay(body: Record<string, unknown>) {
    const signed = await signPayment(payer, paid.requirement(PRICE), RESOURCE);
    return { signed, response: await paid.stack.http.post(PATH).set('PAYMENT-SIGNATURE', signed.header).send(body) };
  }

  describe('the quote', function () {
    it('answers a GET with the 402 quote at 180000 and never settles', async function () {
      const res = await paid.stack.http.get(PATH);
      expect(res.status).to.equal(402);
      expect(res.body.resource.url).to.equal(RESOURCE);
      expect(res.body.accepts[0]).to.include({ scheme: 'exact', network: 'eip155:8453', amount: '180000' });
      const header = decodePaymentRequiredHeader(res.headers['payment-required']);
      expect(header.accepts[0]).to.include({ amount: '180000', asset: paid.facilitator.asset });
      expect(await paid.count('payment_authorizations')).to.equal(0);
    });

    it('answers an unpaid valid POST with the same 402 quote', async function () {
      const res = await paid.stack.http.post(PATH).send(request(payer.address));
      expect(res.status).to.equal(402);
      expect(res.body.accepts[0]).to.include({ amount: '180000' });
      expect(res.body.accepts[0].payTo).to.equal(treasury);
      expect(await paid.count('payment_authorizations')).to.equal(0);
    });
  });

  describe('validation (422 before any payment)', function () {
    it('names every missing field', async function () {
      const res = await paid.stack.http.post(PATH).send({});
      expect(res.status).to.equal(422);
      const paths = res.body.error.details.fields.map((f: { path: string }) => f.path);
      expect(paths).to.include.members(['/wallet_address', '/proposed_text', '/response_delay_seconds', '/target_profile']);
    });

    it('refuses a negative delay', async function () {
      const res = await paid.stack.http.post(PATH).send(request(payer.address, { response_delay_seconds: -1 }));
      expect(res.status).to.equal(422);
      expect(res.body.error.details.fields.map((f: { path: string }) => f.path)).to.deep.equal(['/response_delay_seconds']);
    });

    it('refuses an unknown profile', async function () {
      const res = await paid.stack.http.post(PATH).send(request(payer.address, { target_profile: 'pirate-captain' }));
      expect(res.status).to.equal(422);
      expect(res.body.error.details.fields.map((f: { path: string }) => f.path)).to.deep.equal(['/target_profile']);
      expect(await paid.count('payment_authorizations')).to.equal(0);
    });
  });

  describe('a paid rewrite', function () {
    it('rewrites with before/after scores and exact offsets, with a receipt, a ledger row, and exactly the price moved', async function () {
      const before = { payer: await paid.balanceOf(payer.address), treasury: await paid.balanceOf(treasury) };
      const { response } = await pay(request(payer.address));
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      const receipt = decodePaymentResponseHeader(response.headers['payment-response']);
      expect(receipt).to.include({ success: true, network: 'eip155:8453', payer: payer.address });
      expect(receipt.transaction).to.match(/^0x[0-9a-f]{64}$/);

      const body = response.body;
      expect(body.target_profile).to.equal('terse-senior-engineer');
      expect(body.changed).to.equal(true);
      expect(body.after.eq_score).to.be.greaterThan(body.before.eq_score);
      expect(body.rewritten_text).to.not.match(/hope this helps|Certainly|any other questions/);
      expect(body.edits).to.be.an('array').that.is.not.empty;
      for (const e of body.edits as Array<{ start: number; end: number; before: string; after: string; new_start: number; new_end: number }>) {
        expect(REPLY.slice(e.start, e.end)).to.equal(e.before);
        expect(body.rewritten_text.slice(e.new_start, e.new_end)).to.equal(e.after);
      }
      expect(body.improvement).to.be.a('string').and.not.empty;
      expect(body.honesty).to.match(/never makes the text claim to be human/);
      expect(body.referral_code).to.match(/^HL-[0-9A-Z]{8}$/);
      expect(body.payment.transaction).to.equal(receipt.transaction);

      expect(await paid.balanceOf(payer.address)).to.equal(before.payer - BigInt(PRICE));
      expect(await paid.balanceOf(treasury)).to.equal(before.treasury + BigInt(PRICE));
      const ledger = (await paid.stack.deps.dataSource.query(`SELECT * FROM ledger_sessions`)) as Array<Record<string, unknown>>;
      expect(ledger).to.have.length(1);
      expect(ledger[0]).to.include({
        product: 'rewrite',
        profile: 'terse-senior-engineer',
        result_id: body.result_id,
        transaction: receipt.transaction,
        payer: payer.address.toLowerCase(),
        amount: '180000',
      });
      expect(ledger[0].tier).to.equal(null);
      expect(ledger[0].score).to.equal(body.after.eq_score);
      // Neither the reply nor its rewrite is stored: the replay body keeps offsets and replacements only.
      const stored = (await paid.stack.deps.dataSource.query(`SELECT response::text AS r FROM payment_authorizations`)) as Array<{ r: string }>;
      expect(stored).to.have.length(1);
      expect(stored[0].r).to.contain(body.result_id).and.not.contain('restart the server after the deploy');
    });

    it('returns the text unchanged, and says so, when no edit raises the score', async function () {
      const text = 'restart the api pod, then tail the logs.';
      const { response } = await pay(request(payer.address, { proposed_text: text }));
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body.changed).to.equal(false);
      expect(response.body.rewritten_text).to.equal(text);
      expect(response.body.edits).to.deep.equal([]);
      expect(response.body.note).to.match(/unchanged/);
      expect(response.body.after.eq_score).to.equal(response.body.before.eq_score);
    });

    it('a loyal wallet (10 settled sessions) is quoted and charged 10 percent less', async function () {
      const loyal = paid.payers[1];
      for (let i = 0; i < 10; i++) {
        const signed = await signPayment(loyal, paid.requirement(50_000), `${PUBLIC_BASE_URL}/api/simulate`);
        const res = await paid.stack.http
          .post('/api/simulate')
          .set('PAYMENT-SIGNATURE', signed.header)
          .send({ wallet_address: loyal.address, proposed_text: `Sure, after lunch (${i}).`, response_delay_seconds: 30, target_profile: 'dry-witted-colleague' });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      }
      const quote = await paid.stack.http.post(PATH).send(request(loyal.address));
      expect(quote.status).to.equal(402);
      expect(quote.body.accepts[0].amount).to.equal('162000');
      expect(quote.body.discount).to.deep.include({ kind: 'loyalty', pct: 10, list_usdc_units: PRICE });

      const before = await paid.balanceOf(loyal.address);
      const signed = await signPayment(loyal, paid.requirement(162_000), RESOURCE);
      const res = await paid.stack.http.post(PATH).set('PAYMENT-SIGNATURE', signed.header).send(request(loyal.address));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(await paid.balanceOf(loyal.address)).to.equal(before - 162_000n);
      const rows = (await paid.stack.deps.dataSource.query(`SELECT amount FROM ledger_sessions WHERE product = 'rewrite'`)) as Array<{ amount: string }>;
      expect(rows).to.deep.equal([{ amount: '162000' }]);
    });

    it('replays a lost response for the same authorization and request without a second charge, and answers 409 to another request', async function () {
      const body = request(payer.address);
      await expectReplayAndReuseRefused(paid, PATH, payer.address, await pay(body), body, request(payer.address, { target_profile: 'formal-concierge' }));
    });
  });
});
