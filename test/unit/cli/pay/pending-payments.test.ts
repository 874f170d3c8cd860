import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createPendingPaymentStore, pendingPaymentKey, type PendingPayment } from '../../../../cli/pay/pending-payments';

const PAYER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const ENDPOINT = 'http://localhost:3000/api/simulate';
const BODY = JSON.stringify({ proposed_text: 'hi there', response_delay_seconds: 20, target_profile: 'grief-support-peer', wallet_address: PAYER });

function payment(signature: string): PendingPayment {
  return {
    version: 1,
    signedAt: '2026-01-02T03:04:05.000Z',
    endpoint: ENDPOINT,
    headers: { 'Content-Type': 'application/json', 'PAYMENT-SIGNATURE': signature },
    paid: { amount: '50000', asset: '0x5FbDB2315678afecb367f032d93F642f64180aa3', network: 'eip155:8453', payTo: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
  };
}

describe('pending payments (the client state file)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'humanlike-pending-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keys a paid request by URL, exact body and payer (any case of the address)', () => {
    const key = pendingPaymentKey(ENDPOINT, BODY, PAYER);
    expect(key).to.match(/^[0-9a-f]{64}$/);
    expect(pendingPaymentKey(ENDPOINT, BODY, PAYER.toLowerCase())).to.equal(key);
    expect(pendingPaymentKey('http://127.0.0.1:3000/api/simulate', BODY, PAYER)).to.not.equal(key);
    expect(pendingPaymentKey(ENDPOINT, BODY.replace('hi there', 'hi there!'), PAYER)).to.not.equal(key);
    expect(pendingPaymentKey(ENDPOINT, BODY, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).to.not.equal(key);
  });

  it('keeps a payment in a 0600 file in a 0700 directory, and loads it back', async () => {
    const store = createPendingPaymentStore(join(dir, 'state'));
    const key = pendingPaymentKey(ENDPOINT, BODY, PAYER);
    expect(await store.load(key)).to.equal(undefined);
    const kept = await store.keep(key, payment('0xaaa'));
    expect(kept.headers['PAYMENT-SIGNATURE']).to.equal('0xaaa');
    expect(store.fileOf(key)).to.equal(join(dir, 'state', 'pending-payments', `${key}.json`));
    expect((await stat(store.fileOf(key))).mode & 0o777).to.equal(0o600);
    expect((await stat(join(dir, 'state', 'pending-payments'))).mode & 0o777).to.equal(0o700);
    expect(await store.load(key)).to.deep.equal(payment('0xaaa'));
    expect(await readdir(join(dir, 'state', 'pending-payments')), 'no temporary file left').to.deep.equal([`${key}.json`]);
  });

  it('never replaces a kept payment: a second keep gets the first one back', async () => {
    const store = createPendingPaymentStore(dir);
    const key = pendingPaymentKey(ENDPOINT, BODY, PAYER);
    await store.keep(key, payment('0xfirst'));
    const second = await store.keep(key, payment('0xsecond'));
    expect(second.headers['PAYMENT-SIGNATURE']).to.equal('0xfirst');
    expect((await store.load(key))?.headers['PAYMENT-SIGNATURE']).to.equal('0xfirst');
    const [a, b] = await Promise.all([store.keep('k2', payment('0xa')), store.keep('k2', payment('0xb'))]);
    expect(a.headers['PAYMENT-SIGNATURE'], 'two runs at once send one payment').to.equal(b.headers['PAYMENT-SIGNATURE']);
  });

  it('forgets a payment, and forgetting twice is fine', async () => {
    const store = createPendingPaymentStore(dir);
    const key = pendingPaymentKey(ENDPOINT, BODY, PAYER);
    await store.keep(key, payment('0xaaa'));
    await store.remove(key);
    expect(await store.load(key)).to.equal(undefined);
    await store.remove(key);
    expect((await store.keep(key, payment('0xnew'))).headers['PAYMENT-SIGNATURE'], 'a new payment after a final answer').to.equal('0xnew');
  });

  it('refuses to go on over a file it cannot read (it may hold a payment still to settle)', async () => {
    const store = createPendingPaymentStore(dir);
    const key = pendingPaymentKey(ENDPOINT, BODY, PAYER);
    await store.keep(key, payment('0xaaa'));
    await writeFile(store.fileOf(key), '{"version": 1, "signedAt": "2026-01-0');
    await store.load(key).then(
      () => expect.fail('a damaged file was taken as no pending payment'),
      (err: Error) => expect(err.message).to.contain(store.fileOf(key)).and.contain('nothing new is signed'),
    );
    expect(await readFile(store.fileOf(key), 'utf8'), 'left for the user').to.contain('2026-01-0');
  });
});
