import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { createApp } from '../../../api/app';
import { payCommand } from '../../../cli/commands/pay.command';
import { payForSession, PaymentRefusedError } from '../../../cli/pay/pay-for-session';
import { startFaultyProxy, type FaultyProxy } from '../../helpers/faulty-proxy';
import { startPaidStack, type PaidStack } from '../../helpers/paid-stack';

function io() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  return { io: { stdin: new PassThrough(), stdout, stderr, color: false }, out: () => out, err: () => err };
}

describe('humanlike pay (an agent paying end to end over HTTP)', function () {
  this.timeout(60_000);
  let paid: PaidStack;
  let server: Server;
  let url: string;

  before(async function () {
    // The agent reaches the service at its public origin, so resource URLs match what it signs.
    paid = await startPaidStack('cli-pay');
    server = createApp(paid.stack.deps).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await paid.stack.truncate();
  });
  after(async function () {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await paid?.close();
  });

  const request = { proposed_text: 'Oh no, that is a lot at once. Want me to handle the refund so you can rest?', response_delay_seconds: 18, target_profile: 'grief-support-peer' };

  it('pays a basic and a deep session from a private key, with decoded receipts', async function () {
    const key = paid.facilitator.payers[5].privateKey;
    const address = paid.facilitator.payers[5].address;
    const before = await paid.balanceOf(address);

    const basic = io();
    const asset = paid.facilitator.asset;
    const refused = io();
    expect(await payCommand(['--url', url, '--profile', 'grief-support-peer', request.proposed_text], refused.io, { HUMANLIKE_PRIVATE_KEY: key })).to.equal(1);
    expect(refused.err(), 'a token the client did not allow').to.contain('refused to sign');
    expect(await paid.balanceOf(address)).to.equal(before);

    const code = await payCommand(['--url', url, '--asset', asset, '--profile', 'grief-support-peer', request.proposed_text], basic.io, { HUMANLIKE_PRIVATE_KEY: key });
    expect(code, basic.err()).to.equal(0);
    expect(basic.out()).to.match(/EQ score [0-9.]+/).and.contain('Add to the system prompt:').and.contain('Receipt: {"success":true');
    expect(await paid.balanceOf(address)).to.equal(before - 50_000n);

    const deep = io();
    const deepCode = await payCommand(['--url', url, '--asset', asset, '--profile', 'grief-support-peer', '--deep', '--json', request.proposed_text], deep.io, { HUMANLIKE_PRIVATE_KEY: key });
    expect(deepCode, deep.err()).to.equal(0);
    const outcome = JSON.parse(deep.out());
    expect(outcome.status).to.equal(200);
    expect(outcome.receipt).to.include({ success: true, payer: address, network: 'eip155:8453' });
    expect(outcome.paid.amount).to.equal('180000');
    expect(outcome.body.rewrite_guidance).to.be.an('array');
    expect(await paid.balanceOf(address)).to.equal(before - 230_000n);
  });

  it('refuses to sign above --max-amount, and pays nothing', async function () {
    const address = paid.facilitator.payers[6].address;
    const before = await paid.balanceOf(address);
    const run = io();
    const code = await payCommand(['--url', url, '--asset', paid.facilitator.asset, '--profile', 'grief-support-peer', '--deep', '--max-amount', '100000', 'hello there'], run.io, {
      HUMANLIKE_PRIVATE_KEY: paid.facilitator.payers[6].privateKey,
    });
    expect(code).to.equal(1);
    expect(run.err()).to.contain('above the limit of 100000');
    expect(await paid.balanceOf(address)).to.equal(before);
  });

  it('replays a lost answer with the same authorization: one payment, one result', async function () {
    const proxy: FaultyProxy = await startFaultyProxy(url);
    try {
      let seen = 0;
      proxy.events.on('request', () => {
        seen += 1;
        // 1: unpaid (402); 2: the paid retry, delivered then lost; 3: the replay.
        proxy.set('*', seen === 2 ? 'lose-response' : 'pass');
      });
      const account = paid.facilitator.payers[7];
      const before = await paid.balanceOf(account.address);
      const outcome = await payForSession({
        url: proxy.url,
        privateKey: account.privateKey,
        request,
        allowedAssets: [{ network: paid.facilitator.network, asset: paid.facilitator.asset }],
      });
      expect(outcome.status).to.equal(200);
      expect(outcome.replayed).to.equal(true);
      expect(seen).to.equal(3);
      expect(await paid.balanceOf(account.address)).to.equal(before - 50_000n);
    } finally {
      await proxy.close();
    }
  });

  it('payForSession refuses (PaymentRefusedError) a quote for a token the caller did not allow', async function () {
    const account = paid.facilitator.payers[7];
    const before = await paid.balanceOf(account.address);
    const refused = await payForSession({ url, privateKey: account.privateKey, request }).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(PaymentRefusedError);
    expect(await paid.balanceOf(account.address)).to.equal(before);
  });

  it('rejects a malformed key without contacting the server', async function () {
    const run = io();
    const code = await payCommand(['--url', 'http://127.0.0.1:9', '--profile', 'grief-support-peer', 'hi'], run.io, { HUMANLIKE_PRIVATE_KEY: 'nope' }).catch((e: Error) => e);
    expect(code).to.be.instanceOf(Error);
    expect((code as Error).message).to.contain('32 bytes of hex');
  });
});
