import { expect } from 'chai';
import supertest from 'supertest';
import type { DataSource } from 'typeorm';
import { createApp } from '../../../api/app';
import { createDataSource } from '../../../shared/db/create-data-source';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../helpers/paid-stack';
import { startTcpRelay, type TcpRelay } from '../../helpers/tcp-relay';
import { signPayment } from '../../helpers/x402-payments';

const SIMULATE_URL = `${PUBLIC_BASE_URL}/api/simulate`;
const BUNDLE_URL = `${PUBLIC_BASE_URL}/api/bundle`;
const BASIC = 50_000;
const BUNDLE = 42_500_000;

function session(wallet: string) {
  return {
    wallet_address: wallet,
    proposed_text: 'Ugh, that sounds exhausting. Want me to swap shifts with you on Friday so you can rest?',
    response_delay_seconds: 20,
    target_profile: 'grief-support-peer',
  };
}

// Every route reaches PostgreSQL through one DataSource; this one goes through a relay the test cuts.
describe('every route when PostgreSQL goes away (503 database_unavailable)', function () {
  this.timeout(60_000);
  let paid: PaidStack;
  let relay: TcpRelay;
  let cutSource: DataSource;
  let down: ReturnType<typeof supertest>;
  let bundleToken: string;

  before(async function () {
    paid = await startPaidStack('database-down');
    await paid.stack.truncate();
    // A bundle bought while the database is up, to redeem and read while it is down.
    const owner = paid.payers[2];
    const signed = await signPayment(owner, paid.requirement(BUNDLE), BUNDLE_URL);
    const bought = await paid.stack.http.post('/api/bundle').set('PAYMENT-SIGNATURE', signed.header).send({ wallet_address: owner.address });
    expect(bought.status, JSON.stringify(bought.body)).to.equal(200);
    bundleToken = bought.body.bundle_token as string;

    const url = new URL(paid.stack.config.db.url ?? '');
    relay = await startTcpRelay({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${relay.port}`;
    cutSource = createDataSource({ url: url.toString(), poolMax: 2, ssl: false, preparedStatements: true }, 'test-database-down');
    await cutSource.initialize();
    down = supertest(createApp({ ...paid.stack.deps, dataSource: cutSource }).callback());
    await relay.cut();
  });
  after(async function () {
    await cutSource?.destroy().catch(() => undefined);
    await paid?.close();
  });

  function expectUnavailable(res: supertest.Response): void {
    expect(res.status, JSON.stringify(res.body)).to.equal(503);
    expect(res.body.error.code).to.equal('database_unavailable');
    expect(res.body.error.message).to.be.a('string').and.not.empty;
    expect(res.headers['retry-after']).to.equal('5');
  }

  it('a paid session with a valid signed payment: 503, nothing reserved, nothing charged', async function () {
    const payer = paid.payers[0];
    const before = await paid.balanceOf(payer.address);
    const authorizations = await paid.count('payment_authorizations');
    const signed = await signPayment(payer, paid.requirement(BASIC), SIMULATE_URL);
    const res = await down.post('/api/simulate').set('PAYMENT-SIGNATURE', signed.header).send(session(payer.address));
    expectUnavailable(res);
    expect(res.headers['payment-response']).to.equal(undefined);
    expect(res.body).to.not.have.any.keys('score', 'result_id');
    expect(await paid.count('payment_authorizations')).to.equal(authorizations);
    expect(await paid.balanceOf(payer.address)).to.equal(before);
  });

  it('a bundle purchase with a valid signed payment: 503, nothing charged', async function () {
    const payer = paid.payers[1];
    const before = await paid.balanceOf(payer.address);
    const signed = await signPayment(payer, paid.requirement(BUNDLE), BUNDLE_URL);
    const res = await down.post('/api/bundle').set('PAYMENT-SIGNATURE', signed.header).send({ wallet_address: payer.address });
    expectUnavailable(res);
    expect(res.body).to.not.have.property('bundle_token');
    expect(await paid.balanceOf(payer.address)).to.equal(before);
  });

  it('a bundle redemption: 503, no credit spent', async function () {
    const res = await down.post('/api/simulate').set('X-BUNDLE-TOKEN', bundleToken).send(session(paid.payers[2].address));
    expectUnavailable(res);
    const balance = await paid.stack.http.get('/api/bundle/balance').set('X-BUNDLE-TOKEN', bundleToken);
    expect(balance.status).to.equal(200);
    expect(balance.body.credits_remaining).to.equal(1000);
  });

  it('the bundle balance and token recovery: 503', async function () {
    expectUnavailable(await down.get('/api/bundle/balance').set('X-BUNDLE-TOKEN', bundleToken));
    const owner = paid.payers[2];
    const timestamp = Math.floor(Date.now() / 1000);
    const recover = await down
      .post('/api/bundle/recover')
      .send({ bundle_id: '00000000-0000-4000-8000-000000000000', wallet_address: owner.address, timestamp, signature: await owner.signMessage({ message: 'x' }) });
    expectUnavailable(recover);
  });

  it('the live feed with a backlog: 503, and the stream it opened is dropped', async function () {
    const listeners = paid.stack.deps.feed.size;
    const res = await down.get('/api/feed?recent=5');
    expectUnavailable(res);
    expect(res.headers['content-type']).to.match(/^application\/json/);
    expect(paid.stack.deps.feed.size).to.equal(listeners);
  });

  it('the referral status: 503', async function () {
    expectUnavailable(await down.get('/api/referral/status/HL-ABCDEFGH'));
  });
});
