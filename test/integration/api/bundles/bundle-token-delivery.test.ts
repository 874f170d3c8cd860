import { expect } from 'chai';
import { privateKeyToAccount, generatePrivateKey, type PrivateKeyAccount } from 'viem/accounts';
import { claimMessage } from '../../../../api/bundles/token-claim';
import { createLogger } from '../../../../shared/logger';
import { startWorkers, type WorkerRuntime } from '../../../../workers/main';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { TEST_REDIS_URL } from '../../../helpers/redis';
import { startTcpRelay, type TcpRelay } from '../../../helpers/tcp-relay';
import { signPayment, type SignedPayment } from '../../../helpers/x402-payments';

const BUNDLE_URL = `${PUBLIC_BASE_URL}/api/bundle`;
const BUNDLE = 42_500_000;

// A purchase whose first answer was not its delivery: the buyer's retry gets
// the token exactly once by proving it holds the paying key; a replay rebuilt from the chain (the
// same payment header, which anyone can rebuild once it settled) never does.
describe('bundle token delivery across non-final answers', function () {
  this.timeout(60_000);

  const claim = (account: PrivateKeyAccount, signed: SignedPayment) => account.signMessage({ message: claimMessage(signed.nonce) });

  async function settledStatus(paid: PaidStack, nonce: string): Promise<string | undefined> {
    const rows = (await paid.stack.deps.dataSource.query(`SELECT status FROM payment_authorizations WHERE nonce = $1`, [nonce.toLowerCase()])) as Array<{ status: string }>;
    return rows[0]?.status;
  }

  async function expectDeliveredOnceToTheBuyer(paid: PaidStack, buyer: PrivateKeyAccount, signed: SignedPayment) {
    const post = (headers: Record<string, string> = {}) =>
      paid.stack.http.post('/api/bundle').set('PAYMENT-SIGNATURE', signed.header).set(headers).send({ wallet_address: buyer.address });

    const rebuilt = await post();
    expect(rebuilt.status, JSON.stringify(rebuilt.body)).to.equal(200);
    expect(rebuilt.body.bundle_token).to.equal(null);
    expect(rebuilt.body.token_note).to.contain('X-BUNDLE-CLAIM');

    const stranger = privateKeyToAccount(generatePrivateKey());
    const forged = await post({ 'X-BUNDLE-CLAIM': await claim(stranger, signed) });
    expect(forged.status).to.equal(200);
    expect(forged.body.bundle_token).to.equal(null);

    const buyers = await post({ 'X-BUNDLE-CLAIM': await claim(buyer, signed) });
    expect(buyers.status, JSON.stringify(buyers.body)).to.equal(200);
    expect(buyers.body.bundle_token).to.be.a('string').and.match(/^hlb_/);
    const balance = await paid.stack.http.get('/api/bundle/balance').set('X-BUNDLE-TOKEN', buyers.body.bundle_token);
    expect(balance.status).to.equal(200);
    expect(balance.body.credits_remaining).to.equal(1000);

    const again = await post({ 'X-BUNDLE-CLAIM': await claim(buyer, signed) });
    expect(again.status).to.equal(200);
    expect(again.body.bundle_token).to.equal(null);
    expect(await paid.count('ledger_sessions')).to.equal(1);
  }

  describe('across a 504 settlement_pending', function () {
    let paid: PaidStack;
    let worker: WorkerRuntime | undefined;

    before(async function () {
      // No worker at first: the settlement job waits in the queue and the purchase answers 504.
      paid = await startPaidStack('bundle-504', { worker: false, env: { SETTLEMENT_WAIT_TIMEOUT_MS: '400' } });
      await paid.stack.truncate();
    });
    after(async function () {
      await worker?.close();
      await paid?.close();
    });

    it('says how the token will come, then gives it once to the buyer and never to a replay', async function () {
      const buyer = paid.payers[2];
      const before = await paid.balanceOf(buyer.address);
      const signed = await signPayment(buyer, paid.requirement(BUNDLE), BUNDLE_URL);
      const first = await paid.stack.http.post('/api/bundle').set('PAYMENT-SIGNATURE', signed.header).send({ wallet_address: buyer.address });
      expect(first.status, JSON.stringify(first.body)).to.equal(504);
      expect(first.body.error.code).to.equal('settlement_pending');
      expect(first.body.token_note).to.contain('X-BUNDLE-CLAIM');

      worker = await startWorkers(paid.stack.config, createLogger(paid.stack.config, 'test-worker'));
      const deadline = Date.now() + 15_000;
      while ((await settledStatus(paid, signed.nonce)) !== 'settled' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await settledStatus(paid, signed.nonce)).to.equal('settled');
      expect(before - (await paid.balanceOf(buyer.address))).to.equal(BigInt(BUNDLE));

      await expectDeliveredOnceToTheBuyer(paid, buyer, signed);
      expect(before - (await paid.balanceOf(buyer.address))).to.equal(BigInt(BUNDLE));
    });
  });

  describe('across a 503 queue_unavailable', function () {
    let paid: PaidStack;
    let relay: TcpRelay;

    before(async function () {
      const redis = new URL(TEST_REDIS_URL);
      relay = await startTcpRelay({ host: redis.hostname, port: Number(redis.port || 6379) });
      const url = new URL(TEST_REDIS_URL);
      url.port = String(relay.port);
      paid = await startPaidStack('bundle-503', { env: { REDIS_URL: url.toString(), JOB_ENQUEUE_TIMEOUT_MS: '300' } });
      await paid.stack.truncate();
    });
    after(async function () {
      relay?.resume();
      await paid?.close();
      await relay?.cut();
    });

    it('says how the token will come, then gives it once to the buyer and never to a replay', async function () {
      const buyer = paid.payers[3];
      const before = await paid.balanceOf(buyer.address);
      const signed = await signPayment(buyer, paid.requirement(BUNDLE), BUNDLE_URL);
      relay.pause();
      const first = await paid.stack.http.post('/api/bundle').set('PAYMENT-SIGNATURE', signed.header).send({ wallet_address: buyer.address });
      expect(first.status, JSON.stringify(first.body)).to.equal(503);
      expect(first.body.error.code).to.equal('queue_unavailable');
      expect(first.body.token_note).to.contain('X-BUNDLE-CLAIM');
      expect(await paid.balanceOf(buyer.address)).to.equal(before);
      relay.resume();

      // The buyer's retry settles; with its claim it is the token's one delivery.
      const deadline = Date.now() + 15_000;
      let retried;
      do {
        retried = await paid.stack.http
          .post('/api/bundle')
          .set('PAYMENT-SIGNATURE', signed.header)
          .set('X-BUNDLE-CLAIM', await claim(buyer, signed))
          .send({ wallet_address: buyer.address });
        if (retried.status === 200) break;
        await new Promise((r) => setTimeout(r, 200));
      } while (Date.now() < deadline);
      expect(retried.status, JSON.stringify(retried.body)).to.equal(200);
      expect(retried.body.bundle_token).to.be.a('string').and.match(/^hlb_/);
      expect(before - (await paid.balanceOf(buyer.address))).to.equal(BigInt(BUNDLE));

      const replay = await paid.stack.http.post('/api/bundle').set('PAYMENT-SIGNATURE', signed.header).send({ wallet_address: buyer.address });
      expect(replay.status).to.equal(200);
      expect(replay.body.bundle_token).to.equal(null);
      const again = await paid.stack.http
        .post('/api/bundle')
        .set('PAYMENT-SIGNATURE', signed.header)
        .set('X-BUNDLE-CLAIM', await claim(buyer, signed))
        .send({ wallet_address: buyer.address });
      expect(again.body.bundle_token).to.equal(null);
      expect(await paid.count('ledger_sessions')).to.equal(1);
    });
  });
});
