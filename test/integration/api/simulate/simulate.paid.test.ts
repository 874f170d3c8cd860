import { expect } from 'chai';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import type { PrivateKeyAccount } from 'viem/accounts';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { base64Json, signPayment, type SignOptions } from '../../../helpers/x402-payments';
import { expectReplayAndReuseRefused } from '../../../helpers/paid-contract';

const RESOURCE = `${PUBLIC_BASE_URL}/api/simulate`;
const BASIC = 50_000;
const DEEP = 180_000;

function session(wallet: string, extra: Record<string, unknown> = {}) {
  return {
    wallet_address: wallet,
    proposed_text: "Oh no, I'm so sorry. That's a rough week. Want me to call you tonight so we can sort out the flights together?",
    response_delay_seconds: 14,
    target_profile: 'grief-support-peer',
    ...extra,
  };
}

describe('POST /api/simulate paid with x402 (real facilitator, real chain)', function () {
  this.timeout(60_000);
  let paid: PaidStack;
  let payer: PrivateKeyAccount;
  let treasury: `0x${string}`;

  before(async function () {
    paid = await startPaidStack('simulate-paid');
    payer = paid.payers[0];
    treasury = paid.facilitator.treasury;
  });
  after(async function () {
    await paid?.close();
  });
  beforeEach(async function () {
    await paid.stack.truncate();
  });

  async function signAndPost(body: Record<string, unknown>, amount: number, headers: Record<string, string>) {
    const signed = await signPayment(payer, paid.requirement(amount), RESOURCE);
    return { signed, response: await paid.stack.http.post('/api/simulate').set({ ...headers, 'PAYMENT-SIGNATURE': signed.header }).send(body) };
  }

  async function pay(body: Record<string, unknown>, amount: number, options: SignOptions = {}, account = payer) {
    const signed = await signPayment(account, paid.requirement(amount), RESOURCE, options);
    return { signed, response: await paid.stack.http.post('/api/simulate').set('PAYMENT-SIGNATURE', signed.header).send(body) };
  }

  describe('the challenge', function () {
    it('answers a GET with the 402 quote and never settles', async function () {
      const res = await paid.stack.http.get('/api/simulate');
      expect(res.status).to.equal(402);
      expect(res.body.x402Version).to.equal(2);
      expect(res.body.resource.url).to.equal(RESOURCE);
      expect(res.body.accepts[0]).to.include({ scheme: 'exact', network: 'eip155:8453', amount: '50000', maxAmountRequired: '50000' });
      expect(res.body.accepts[0].payTo).to.equal(treasury);
      const header = decodePaymentRequiredHeader(res.headers['payment-required']);
      expect(header.accepts[0]).to.include({ amount: '50000', asset: paid.facilitator.asset });
      expect(await paid.count('payment_authorizations')).to.equal(0);
    });

    it('quotes the deep tier on GET ?tier=deep and on an unpaid deep POST', async function () {
      const get = await paid.stack.http.get('/api/simulate?tier=deep');
      expect(get.body.accepts[0].amount).to.equal('180000');
      const post = await paid.stack.http.post('/api/simulate').send(session(payer.address, { tier: 'deep' }));
      expect(post.status).to.equal(402);
      expect(post.body.accepts[0].amount).to.equal('180000');
    });

    it('validates the body before asking for payment (422, no challenge)', async function () {
      const res = await paid.stack.http.post('/api/simulate').send({ wallet_address: 'nope', proposed_text: '', response_delay_seconds: -1 });
      expect(res.status).to.equal(422);
      const paths = res.body.error.details.fields.map((f: { path: string }) => f.path);
      expect(paths).to.include.members(['/wallet_address', '/proposed_text', '/response_delay_seconds', '/target_profile']);
    });
  });

  describe('a reply in another language', function () {
    it('is refused with 422 unsupported_language before payment: signed, yet nothing is charged or recorded', async function () {
      const before = { payer: await paid.balanceOf(payer.address), treasury: await paid.balanceOf(treasury) };
      const german = 'Oh nein, das tut mir wirklich leid. Das muss eine furchtbar schwere Woche für dich gewesen sein. Ich bin für dich da.';
      const { response } = await pay(session(payer.address, { proposed_text: german }), BASIC);
      expect(response.status).to.equal(422);
      expect(response.body.error.code).to.equal('unsupported_language');
      expect(response.body.error.details.fields[0]).to.include({ path: '/proposed_text', rule: 'unsupported_language' });
      expect(response.headers['payment-response']).to.equal(undefined);
      expect(await paid.balanceOf(payer.address)).to.equal(before.payer);
      expect(await paid.balanceOf(treasury)).to.equal(before.treasury);
      expect(await paid.count('payment_authorizations')).to.equal(0);
      expect(await paid.count('ledger_sessions')).to.equal(0);
    });
  });

  describe('a paid session', function () {
    it('basic: delivers the result with a receipt, and moves exactly the price from payer to treasury', async function () {
      const before = { payer: await paid.balanceOf(payer.address), treasury: await paid.balanceOf(treasury) };
      const { response } = await pay(session(payer.address), BASIC);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      const receipt = decodePaymentResponseHeader(response.headers['payment-response']);
      expect(receipt).to.include({ success: true, network: 'eip155:8453', payer: payer.address });
      expect(receipt.transaction).to.match(/^0x[0-9a-f]{64}$/);
      expect(response.headers['x-payment-response']).to.equal(response.headers['payment-response']);
      expect(response.headers['x-payment-replayed']).to.equal(undefined);

      const body = response.body;
      expect(body.result_id).to.match(/^[0-9a-f-]{36}$/);
      expect(body.tier).to.equal('basic');
      expect(body.score.suggested_prompt_addition).to.be.a('string').and.not.empty;
      expect(body.score.eq_score).to.be.within(0, 100);
      expect(body.improvement).to.be.a('string').and.not.empty;
      expect(body.referral_code).to.match(/^HL-[0-9A-Z]{8}$/);
      expect(body.reward_bundle_tokens).to.deep.equal([]);
      expect(body).to.not.have.any.keys('diagnostics', 'signals', 'rewrite_guidance');
      expect(body.payment.transaction).to.equal(receipt.transaction);

      expect(await paid.balanceOf(payer.address)).to.equal(before.payer - BigInt(BASIC));
      expect(await paid.balanceOf(treasury)).to.equal(before.treasury + BigInt(BASIC));
      const ledger = (await paid.stack.deps.dataSource.query(`SELECT * FROM ledger_sessions`)) as Array<Record<string, unknown>>;
      expect(ledger).to.have.length(1);
      expect(ledger[0]).to.include({
        product: 'simulate',
        tier: 'basic',
        profile: 'grief-support-peer',
        result_id: body.result_id,
        network: 'eip155:8453',
        transaction: receipt.transaction,
        payer: payer.address.toLowerCase(),
        amount: '50000',
      });
      expect(ledger[0].score).to.equal(body.score.eq_score);
      expect(ledger[0].passed).to.equal(body.score.passed);
    });

    it('deep: adds diagnostics, signals with evidence and rewrite guidance, and charges the deep price', async function () {
      const before = await paid.balanceOf(payer.address);
      const { response } = await pay(session(payer.address, { tier: 'deep', proposed_text: 'Certainly! As an AI language model, I understand your frustration. Here are some steps: 1. Rest. 2. Hydrate.' }), DEEP);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      const body = response.body;
      expect(body.tier).to.equal('deep');
      expect(body.diagnostics).to.have.all.keys('empathy', 'formality', 'directness', 'hesitation', 'timing');
      expect(body.diagnostics.formality).to.include.keys('measured', 'target', 'delta');
      expect(body.signals.map((s: { id: string }) => s.id)).to.include('ai-self-disclosure');
      const disclosure = body.signals.find((s: { id: string }) => s.id === 'ai-self-disclosure');
      expect(disclosure.spans[0]).to.include.keys('start', 'end');
      expect(body.rewrite_guidance).to.be.an('array').that.is.not.empty;
      expect(await paid.balanceOf(payer.address)).to.equal(before - BigInt(DEEP));
    });

    it('replays a lost response for the same authorization and request without a second charge, and answers 409 to another request', async function () {
      const body = session(payer.address);
      const other = session(payer.address, { proposed_text: 'A different reply entirely.' });
      await expectReplayAndReuseRefused(paid, '/api/simulate', payer.address, await pay(body, BASIC), body, other);
    });

    it('honours Idempotency-Key: the same key and request replay the first result and take no second payment', async function () {
      const body = session(payer.address);
      const key = { 'Idempotency-Key': 'agent-3-turn-17' };
      const first = await signAndPost(body, BASIC, key);
      expect(first.response.status).to.equal(200);
      const afterFirst = await paid.balanceOf(payer.address);

      // A retry that signed a fresh authorization: answered from the first payment; the new one is never reserved.
      const retry = await signAndPost(body, BASIC, key);
      expect(retry.response.status).to.equal(200);
      expect(retry.response.headers['x-payment-replayed']).to.equal('true');
      expect(retry.response.body).to.deep.equal(first.response.body);
      expect(await paid.balanceOf(payer.address)).to.equal(afterFirst);
      expect(await paid.count('payment_authorizations')).to.equal(1);

      // The key with another request is a conflict, and costs nothing either.
      const other = await signAndPost(session(payer.address, { proposed_text: 'Something else entirely.' }), BASIC, key);
      expect(other.response.status).to.equal(409);
      expect(other.response.body.error.code).to.equal('idempotency_conflict');
      expect(await paid.count('payment_authorizations')).to.equal(1);
      expect(await paid.balanceOf(payer.address)).to.equal(afterFirst);
    });

    it('settles 50 concurrent requests carrying one authorization exactly once', async function () {
      this.timeout(120_000);
      const before = { payer: await paid.balanceOf(payer.address), treasury: await paid.balanceOf(treasury) };
      const body = session(payer.address);
      const signed = await signPayment(payer, paid.requirement(BASIC), RESOURCE);
      const otherBody = session(payer.address, { proposed_text: 'Hey. Rough one. Call me?' });
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          paid.stack.http
            .post('/api/simulate')
            .set('PAYMENT-SIGNATURE', signed.header)
            .send(i % 5 === 4 ? otherBody : body),
        ),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.every((s) => s === 200 || s === 409), statuses.join(',')).to.equal(true);
      const ok = answers.filter((a) => a.status === 200);
      expect(ok.length).to.be.at.least(1);
      // Every 200 is the same delivery; all but one are marked as replays.
      const transactions = new Set(ok.map((a) => a.body.payment.transaction));
      expect(transactions.size).to.equal(1);
      expect(ok.filter((a) => a.headers['x-payment-replayed'] !== 'true').length).to.be.at.most(1);
      expect(await paid.count('ledger_sessions')).to.equal(1);
      expect(await paid.count('payment_authorizations')).to.equal(1);
      expect(await paid.balanceOf(payer.address)).to.equal(before.payer - BigInt(BASIC));
      expect(await paid.balanceOf(treasury)).to.equal(before.treasury + BigInt(BASIC));
    });
  });

  describe('each way to be wrong is refused and costs nothing', function () {
    const now = () => Math.floor(Date.now() / 1000);
    const cases: Array<{ name: string; status: number; reason: string; options?: () => SignOptions; wallet?: () => string; amount?: number }> = [
      { name: 'a forged signature (from another address)', status: 402, reason: 'invalid_exact_evm_signature', options: () => ({ from: paid.payers[1].address }), wallet: () => paid.payers[1].address },
      { name: 'a signer other than wallet_address', status: 402, reason: 'wallet_address_mismatch', wallet: () => paid.payers[1].address },
      { name: 'one unit short', status: 402, reason: 'invalid_exact_evm_authorization_value', options: () => ({ value: String(BASIC - 1) }) },
      { name: 'one unit over', status: 402, reason: 'invalid_exact_evm_authorization_value', options: () => ({ value: String(BASIC + 1) }) },
      { name: 'the deep price for a basic session', status: 402, reason: 'invalid_exact_evm_authorization_value', amount: DEEP },
      { name: 'a wrong payTo', status: 402, reason: 'invalid_exact_evm_recipient_mismatch', options: () => ({ to: paid.payers[2].address, accepted: { payTo: paid.payers[2].address } }) },
      { name: 'a wrong asset', status: 402, reason: 'invalid_exact_evm_asset_mismatch', options: () => ({ accepted: { asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' } }) },
      { name: 'a wrong network', status: 402, reason: 'invalid_exact_evm_network_mismatch', options: () => ({ accepted: { network: 'eip155:84532' } }) },
      { name: 'an expired authorization', status: 402, reason: 'invalid_exact_evm_payload_authorization_valid_before', options: () => ({ validBefore: now() - 5 }) },
      { name: 'a not-yet-valid authorization', status: 402, reason: 'invalid_exact_evm_payload_authorization_valid_after', options: () => ({ validAfter: now() + 120 }) },
      { name: 'an authorization taken from another resource', status: 402, reason: 'resource_mismatch', options: () => ({ resourceUrl: `${PUBLIC_BASE_URL}/api/stress-test` }) },
    ];
    for (const c of cases) {
      it(`refuses ${c.name}: ${c.status} ${c.reason}`, async function () {
        const before = await paid.balanceOf(payer.address);
        const jobsBefore = await paid.stack.deps.scoringQueue.getJobCountByTypes('waiting', 'active', 'completed', 'failed', 'delayed');
        const wallet = c.wallet?.() ?? payer.address;
        const { response } = await pay(session(wallet), c.amount ?? BASIC, c.options?.() ?? {});
        expect(response.status, JSON.stringify(response.body)).to.equal(c.status);
        expect(response.body.error).to.equal(c.reason);
        expect(response.headers['payment-required']).to.be.a('string');
        expect(await paid.count('payment_authorizations')).to.equal(0);
        expect(await paid.count('ledger_sessions')).to.equal(0);
        expect(await paid.stack.deps.scoringQueue.getJobCountByTypes('waiting', 'active', 'completed', 'failed', 'delayed')).to.equal(jobsBefore);
        expect(await paid.balanceOf(payer.address)).to.equal(before);
      });
    }

    it('refuses a payer without funds through the facilitator (402, nothing reserved)', async function () {
      const { privateKeyToAccount, generatePrivateKey } = await import('viem/accounts');
      const broke = privateKeyToAccount(generatePrivateKey());
      const { response } = await pay(session(broke.address), BASIC, {}, broke);
      expect(response.status).to.equal(402);
      expect(response.body.error).to.match(/insufficient|balance|funds/);
      expect(await paid.count('payment_authorizations')).to.equal(0);
    });

    const malformed: Array<[string, Record<string, string>]> = [
      ['PAYMENT-SIGNATURE that is not base64', { 'PAYMENT-SIGNATURE': '%%%' }],
      ['PAYMENT-SIGNATURE with non-JSON', { 'PAYMENT-SIGNATURE': Buffer.from('not json').toString('base64') }],
      ['PAYMENT-SIGNATURE with a v1 payload', { 'PAYMENT-SIGNATURE': base64Json({ x402Version: 1, scheme: 'exact', network: 'base', payload: {} }) }],
      ['PAYMENT-SIGNATURE with no authorization', { 'PAYMENT-SIGNATURE': base64Json({ x402Version: 2, accepted: {}, payload: { signature: '0x00' } }) }],
    ];
    for (const [name, headers] of malformed) {
      it(`answers 402 with the requirements and the reason, never a 500, to ${name}`, async function () {
        const res = await paid.stack.http.post('/api/simulate').set(headers).send(session(payer.address));
        expect(res.status).to.equal(402);
        expect(res.body.error).to.equal('invalid_payment_header');
        expect(res.body.details).to.include({ header: 'PAYMENT-SIGNATURE' });
        expect(res.body.details.reason).to.be.a('string').and.not.equal('');
        expect(res.body.accepts).to.be.an('array').that.is.not.empty;
        expect(await paid.count('payment_authorizations')).to.equal(0);
      });
    }

    it('answers 400 ambiguous_payment to both payment headers, nothing reserved', async function () {
      const headers = { 'PAYMENT-SIGNATURE': base64Json({}), 'X-PAYMENT': base64Json({}) };
      const res = await paid.stack.http.post('/api/simulate').set(headers).send(session(payer.address));
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('ambiguous_payment');
      expect(await paid.count('payment_authorizations')).to.equal(0);
    });
  });
});
