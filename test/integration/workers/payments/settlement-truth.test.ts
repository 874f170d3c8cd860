import { expect } from 'chai';
import { decodePaymentResponseHeader } from '@x402/core/http';
import type { Response } from 'supertest';
import { maskIdentifier } from '../../../../shared/payments/mask';
import { listenToFeed, type FeedListener } from '../../../helpers/feed-listener';
import type { ProxyFault } from '../../../helpers/faulty-proxy';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment, type SignedPayment } from '../../../helpers/x402-payments';
import { simulateBody } from '../../../fixtures/builders';

const RESOURCE = `${PUBLIC_BASE_URL}/api/simulate`;
const BASIC = 50_000n;

const session = simulateBody;

interface AuthorizationState {
  status: string;
  transaction: string | null;
  unknown_since: Date | null;
  failed_at: Date | null;
  last_error: string | null;
}

async function onlyAuthorization(paid: PaidStack): Promise<AuthorizationState> {
  const rows = (await paid.stack.deps.dataSource.query(
    `SELECT status, transaction, settle_unknown_since AS unknown_since, settle_failed_at AS failed_at, last_error FROM payment_authorizations`,
  )) as AuthorizationState[];
  expect(rows).to.have.length(1);
  return rows[0];
}

async function ledgerTransactions(paid: PaidStack): Promise<string[]> {
  const rows = (await paid.stack.deps.dataSource.query(`SELECT transaction FROM ledger_sessions`)) as Array<{ transaction: string }>;
  return rows.map((r) => r.transaction);
}

// A pending answer: 504 settlement_pending with Retry-After, the result withheld, no claim that nothing was charged.
function expectPending(res: Response): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(504);
  expect(res.body.error.code).to.equal('settlement_pending');
  expect(res.body.error.message).to.not.match(/nothing was charged/i);
  expect(res.body.error.message).to.match(/same authorization/);
  expect(res.body).to.not.have.any.keys('score', 'result_id');
  expect(Number(res.headers['retry-after'])).to.be.within(1, 60);
  expect(res.headers['payment-response']).to.equal(undefined);
}

describe('settlement truth: a settlement whose outcome is unknown is resolved from the chain', function () {
  this.timeout(120_000);

  describe('with EVM_RPC_URL', function () {
    let paid: PaidStack;
    let feed: FeedListener;

    before(async function () {
      // A short facilitator deadline keeps the hanging cases short; a slow answer only adds an unknown outcome the chain resolves.
      paid = await startPaidStack('settlement-truth', { env: { JOB_BACKOFF_MS: '50', X402_FACILITATOR_TIMEOUT_MS: '1500' } });
      feed = await listenToFeed(paid.stack.config.redis.queuePrefix);
    });
    after(async function () {
      await feed?.close();
      await paid?.close();
    });
    beforeEach(async function () {
      await paid.stack.truncate();
      paid.proxy.reset();
      feed.events.length = 0;
    });

    const post = (signed: SignedPayment, wallet: string) => paid.stack.http.post('/api/simulate').set('PAYMENT-SIGNATURE', signed.header).send(session(wallet));

    const forwarded: Array<[ProxyFault, string]> = [
      ['lose-response', 'forwarded, then the connection dropped'],
      ['forward-then-500', 'forwarded, then answered 500'],
      ['forward-then-refuse', 'forwarded, then answered success: false (unexpected_settle_error)'],
    ];
    for (const [fault, what] of forwarded) {
      it(`settle ${what}: the first answer delivers from the chain's record (200, one ledger row, one feed event), charged once; a retry replays`, async function () {
        const payer = paid.payers[0];
        const before = await paid.balanceOf(payer.address);
        const signed = await signPayment(payer, paid.requirement(Number(BASIC)), RESOURCE);
        paid.proxy.set('/settle', fault);

        const first = await post(signed, payer.address);
        expect(first.status, JSON.stringify(first.body)).to.equal(200);
        expect(first.body.score.eq_score).to.be.a('number');
        const receipt = decodePaymentResponseHeader(first.headers['payment-response']);
        expect(receipt.success).to.equal(true);
        expect(receipt.transaction).to.match(/^0x[0-9a-f]{64}$/);
        expect(first.body.payment.transaction).to.equal(receipt.transaction);
        expect(await paid.balanceOf(payer.address)).to.equal(before - BASIC);
        expect(await ledgerTransactions(paid)).to.deep.equal([receipt.transaction]);
        expect(await onlyAuthorization(paid)).to.include({ status: 'settled', transaction: receipt.transaction });
        const [event] = await feed.waitFor(1);
        expect(event).to.include({ result_id: first.body.result_id, transaction: maskIdentifier(receipt.transaction) });

        const again = await post(signed, payer.address);
        expect(again.status, JSON.stringify(again.body)).to.equal(200);
        expect(again.headers['x-payment-replayed']).to.equal('true');
        expect(await paid.balanceOf(payer.address)).to.equal(before - BASIC);
        expect(await paid.count('ledger_sessions')).to.equal(1);
      });
    }

    const notForwarded: Array<[ProxyFault, string]> = [
      ['drop', 'refused without forwarding (connection dropped)'],
      ['error500', 'refused without forwarding (500)'],
      ['hang', 'hanging past the facilitator deadline'],
    ];
    for (const [fault, what] of notForwarded) {
      it(`settle ${what}: 504 settlement_pending with Retry-After, recorded as unknown; the same authorization settles once, later`, async function () {
        const payer = paid.payers[1];
        const before = await paid.balanceOf(payer.address);
        const signed = await signPayment(payer, paid.requirement(Number(BASIC)), RESOURCE);
        paid.proxy.set('/settle', fault);

        const first = await post(signed, payer.address);
        expectPending(first);
        expect(await paid.balanceOf(payer.address)).to.equal(before);
        expect(await paid.count('ledger_sessions')).to.equal(0);
        const row = await onlyAuthorization(paid);
        expect(row).to.include({ status: 'scored', transaction: null, failed_at: null });
        expect(row.unknown_since).to.be.instanceOf(Date);

        paid.proxy.set('/settle', 'pass');
        const again = await post(signed, payer.address);
        expect(again.status, JSON.stringify(again.body)).to.equal(200);
        expect(await paid.balanceOf(payer.address)).to.equal(before - BASIC);
        expect(await paid.count('ledger_sessions')).to.equal(1);
        expect(await onlyAuthorization(paid)).to.include({ status: 'settled' });
      });
    }

    it('a refusal whose reason proves nothing moved stays a plain 402 that says nothing was charged', async function () {
      const payer = paid.payers[2];
      const before = await paid.balanceOf(payer.address);
      const signed = await signPayment(payer, paid.requirement(Number(BASIC)), RESOURCE);
      paid.proxy.set('/settle', 'refuse');

      const refused = await post(signed, payer.address);
      expect(refused.status, JSON.stringify(refused.body)).to.equal(402);
      expect(refused.body.error).to.equal('settlement_failed');
      expect(refused.body.message).to.match(/nothing was charged/);
      expect(decodePaymentResponseHeader(refused.headers['payment-response'])).to.include({
        success: false,
        errorReason: 'invalid_exact_evm_insufficient_balance',
      });
      expect(await onlyAuthorization(paid)).to.include({ status: 'scored', unknown_since: null, failed_at: null });
      expect(await paid.balanceOf(payer.address)).to.equal(before);

      paid.proxy.set('/settle', 'pass');
      const again = await post(signed, payer.address);
      expect(again.status, JSON.stringify(again.body)).to.equal(200);
      expect(await paid.balanceOf(payer.address)).to.equal(before - BASIC);
    });

    it('after an unknown outcome, a later refusal is not taken at its word: the chain says the transfer happened', async function () {
      const payer = paid.payers[3];
      const before = await paid.balanceOf(payer.address);
      const signed = await signPayment(payer, paid.requirement(Number(BASIC)), RESOURCE);
      paid.proxy.set('/settle', 'hang');
      expectPending(await post(signed, payer.address));

      // The facilitator acts on the held requests after its caller gave up: the money moves, the answers are lost.
      expect(await paid.proxy.release('/settle')).to.be.at.least(1);
      expect(await paid.balanceOf(payer.address)).to.equal(before - BASIC);

      // The retry meets a refusal that would prove nothing moved, had nothing been sent before.
      paid.proxy.set('/settle', 'refuse');
      const again = await post(signed, payer.address);
      expect(again.status, JSON.stringify(again.body)).to.equal(200);
      const receipt = decodePaymentResponseHeader(again.headers['payment-response']);
      expect(receipt.success).to.equal(true);
      expect(await ledgerTransactions(paid)).to.deep.equal([receipt.transaction]);
      expect(await paid.balanceOf(payer.address)).to.equal(before - BASIC);
    });

    it('an authorization that expired unused is reported failed (402, nothing was charged), and only then', async function () {
      const payer = paid.payers[4];
      const before = await paid.balanceOf(payer.address);
      const validBefore = Math.floor(Date.now() / 1000) + 12;
      const signed = await signPayment(payer, paid.requirement(Number(BASIC)), RESOURCE, { validBefore });
      paid.proxy.set('/settle', 'drop');
      expectPending(await post(signed, payer.address));

      // Past validBefore by the chain's clock: the development chain's time moves with its blocks.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, (validBefore + 1) * 1000 - Date.now())));
      await paid.mineBlock();
      const expired = await post(signed, payer.address);
      expect(expired.status, JSON.stringify(expired.body)).to.equal(402);
      expect(expired.body.error).to.equal('settlement_failed');
      expect(expired.body.message).to.match(/nothing was charged/);
      expect(decodePaymentResponseHeader(expired.headers['payment-response'])).to.include({ success: false, errorReason: 'authorization_expired' });
      const row = await onlyAuthorization(paid);
      expect(row).to.include({ status: 'scored', transaction: null, last_error: 'authorization_expired' });
      expect(row.failed_at).to.be.instanceOf(Date);

      // Final: the facilitator being back changes nothing.
      paid.proxy.set('/settle', 'pass');
      const later = await post(signed, payer.address);
      expect(later.status).to.equal(402);
      expect(await paid.balanceOf(payer.address)).to.equal(before);
      expect(await paid.count('ledger_sessions')).to.equal(0);
    });
  });

  describe('without EVM_RPC_URL', function () {
    let paid: PaidStack;

    before(async function () {
      paid = await startPaidStack('settlement-truth-no-rpc', { env: { JOB_BACKOFF_MS: '50', EVM_RPC_URL: '' } });
    });
    after(async function () {
      await paid?.close();
    });

    it('a lost settle answer is pending (504), never "nothing was charged"; the retry delivers, charged once', async function () {
      expect(paid.stack.config.payments.evmRpcUrl).to.equal(undefined);
      const payer = paid.payers[0];
      const before = await paid.balanceOf(payer.address);
      const signed = await signPayment(payer, paid.requirement(Number(BASIC)), RESOURCE);
      const post = () => paid.stack.http.post('/api/simulate').set('PAYMENT-SIGNATURE', signed.header).send(session(payer.address));
      paid.proxy.set('/settle', 'lose-response');

      expectPending(await post());
      expect(await paid.balanceOf(payer.address)).to.equal(before - BASIC);
      expect(await paid.count('ledger_sessions')).to.equal(0);

      paid.proxy.set('/settle', 'pass');
      const again = await post();
      expect(again.status, JSON.stringify(again.body)).to.equal(200);
      expect(await paid.balanceOf(payer.address)).to.equal(before - BASIC);
      expect(await paid.count('ledger_sessions')).to.equal(1);
    });
  });
});
