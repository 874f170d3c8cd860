import { expect } from 'chai';
import { privateKeyToAccount, generatePrivateKey, type PrivateKeyAccount } from 'viem/accounts';
import { roomClaimMessage } from '../../../../api/roleplay/secret-claim';
import { createLogger } from '../../../../shared/logger';
import { startWorkers, type WorkerRuntime } from '../../../../workers/main';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { seedLedgerRow } from '../../../helpers/ledger-seed';
import { until } from '../../../helpers/until';
import { signPayment, type SignedPayment } from '../../../helpers/x402-payments';

const URL = `${PUBLIC_BASE_URL}/api/roleplay`;
const PRICE = 400_000;

// An opening whose first answer was not its delivery (504 settlement_pending): the opener's retry
// gets its secret once by proving it holds the paying key; a replay rebuilt from the chain never does.
describe("the opener's session secret across a 504 settlement_pending", function () {
  this.timeout(60_000);
  let paid: PaidStack;
  let worker: WorkerRuntime | undefined;

  before(async function () {
    // No worker at first: the settlement job waits in the queue and the opening answers 504.
    paid = await startPaidStack('roleplay-504', { worker: false, env: { SETTLEMENT_WAIT_TIMEOUT_MS: '400' } });
    await paid.stack.truncate();
  });
  after(async function () {
    await worker?.close();
    await paid?.close();
  });

  const claim = (account: PrivateKeyAccount, signed: SignedPayment) => account.signMessage({ message: roomClaimMessage(signed.nonce) });
  const stateOf = async () => ((await paid.stack.deps.dataSource.query(`SELECT state FROM roleplay_rooms`)) as Array<{ state: string }>).map((r) => r.state);

  it('keeps the room pending and unlisted, then gives the secret once to the payer and never to a replay', async function () {
    const opener = paid.payers[4];
    const before = await paid.balanceOf(opener.address);
    const signed = await signPayment(opener, paid.requirement(PRICE), URL);
    const post = (headers: Record<string, string> = {}) =>
      paid.stack.http.post('/api/roleplay').set('PAYMENT-SIGNATURE', signed.header).set(headers).send({ wallet_address: opener.address, open_to_any_partner: true });

    const first = await post();
    expect(first.status, JSON.stringify(first.body)).to.equal(504);
    expect(first.body.error.code).to.equal('settlement_pending');
    expect(first.body.secret_note).to.contain('X-ROLEPLAY-CLAIM');
    expect(await stateOf()).to.deep.equal(['pending']);
    expect((await paid.stack.http.get('/api/roleplay/open')).body.rooms).to.deep.equal([]);

    worker = await startWorkers(paid.stack.config, createLogger(paid.stack.config, 'test-worker'));
    const deadline = Date.now() + 15_000;
    let rebuilt;
    do {
      rebuilt = await post();
      if (rebuilt.status === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    } while (Date.now() < deadline);
    expect(rebuilt.status, JSON.stringify(rebuilt.body)).to.equal(200);
    expect(rebuilt.body.session_secret).to.equal(null);
    expect(rebuilt.body.secret_note).to.contain('X-ROLEPLAY-CLAIM');
    expect(before - (await paid.balanceOf(opener.address))).to.equal(BigInt(PRICE));

    const stranger = privateKeyToAccount(generatePrivateKey());
    expect((await post({ 'X-ROLEPLAY-CLAIM': await claim(stranger, signed) })).body.session_secret).to.equal(null);
    expect(await stateOf()).to.deep.equal(['pending']);

    const claimed = await post({ 'X-ROLEPLAY-CLAIM': await claim(opener, signed) });
    expect(claimed.status).to.equal(200);
    expect(claimed.body.session_secret).to.match(/^hlr_/);
    expect(claimed.body.state).to.equal('open');
    expect(await stateOf()).to.deep.equal(['open']);
    expect((await paid.stack.http.get('/api/roleplay/open')).body.rooms).to.have.length(1);
    const view = await paid.stack.http.get(`/api/roleplay/${claimed.body.room_id}`).set('X-ROLEPLAY-SECRET', claimed.body.session_secret);
    expect(view.body.viewer).to.equal('opener');

    const again = await post({ 'X-ROLEPLAY-CLAIM': await claim(opener, signed) });
    expect(again.status).to.equal(200);
    expect(again.body.session_secret).to.equal(null);
    expect(before - (await paid.balanceOf(opener.address))).to.equal(BigInt(PRICE));
    expect(await paid.count('ledger_sessions')).to.equal(1);
  });

  it("delivers a loyal opener's secret on the retry though its own settlement moved the wallet's quote", async function () {
    const opener = paid.payers[6];
    // Nine settled sessions: this opening is the tenth, and its settlement turns the loyalty discount on.
    for (let i = 0; i < 9; i++) await seedLedgerRow(paid.stack.deps.dataSource, { payer: opener.address.toLowerCase(), product: 'simulate', tier: 'basic', amount: 50_000 });
    const quoted = await paid.stack.http.get(`/api/roleplay?wallet_address=${opener.address}`);
    expect(quoted.body.accepts[0].amount).to.equal(String(PRICE));
    const before = await paid.balanceOf(opener.address);
    await worker?.close();
    worker = undefined;
    const signed = await signPayment(opener, paid.requirement(PRICE), URL);
    const post = (headers: Record<string, string> = {}) =>
      paid.stack.http.post('/api/roleplay').set('PAYMENT-SIGNATURE', signed.header).set(headers).send({ wallet_address: opener.address });

    const first = await post();
    expect([first.status, first.body.error?.code]).to.deep.equal([504, 'settlement_pending']);
    worker = await startWorkers(paid.stack.config, createLogger(paid.stack.config, 'test-worker'));
    await until(async () => before - (await paid.balanceOf(opener.address)) === BigInt(PRICE), 15_000, 'the opening to settle');
    await until(async () => (await paid.stack.http.get(`/api/roleplay?wallet_address=${opener.address}`)).body.accepts[0].amount !== String(PRICE), 15_000, 'the quote to move');

    const claimed = await post({ 'X-ROLEPLAY-CLAIM': await claim(opener, signed) });
    expect(claimed.status, JSON.stringify(claimed.body)).to.equal(200);
    expect(claimed.body.session_secret).to.match(/^hlr_/);
    expect(claimed.body.state).to.equal('open');
    expect(before - (await paid.balanceOf(opener.address))).to.equal(BigInt(PRICE));
  });
});
