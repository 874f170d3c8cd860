import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { generatePrivateKey } from 'viem/accounts';
import { createApp } from '../../../api/app';
import { payCommand } from '../../../cli/commands/pay.command';
import { payForSession, PaymentRefusedError } from '../../../cli/pay/pay-for-session';
import { startFaultyProxy, type FaultyProxy } from '../../helpers/faulty-proxy';
import { startPaidStack, type PaidStack } from '../../helpers/paid-stack';
import { closedPort } from '../../helpers/ports';

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
  // Pending payments of these runs go here, never to the home directory of whoever runs the tests.
  let stateDir: string;
  const pendingFiles = () => readdir(join(stateDir, 'pending-payments')).catch(() => [] as string[]);

  before(async function () {
    // The agent reaches the service at its public origin, so resource URLs match what it signs.
    paid = await startPaidStack('cli-pay');
    server = createApp(paid.stack.deps).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await paid.stack.truncate();
  });
  beforeEach(async function () {
    stateDir = await mkdtemp(join(tmpdir(), 'humanlike-state-'));
  });
  afterEach(async function () {
    paid.proxy.reset();
    await rm(stateDir, { recursive: true, force: true });
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
    expect(await payCommand(['--url', url, '--profile', 'grief-support-peer', request.proposed_text], refused.io, { HUMANLIKE_PRIVATE_KEY: key, HUMANLIKE_STATE_DIR: stateDir })).to.equal(1);
    // It names the quoted token and network and the flag that allows it, not the x402 library's settings.
    expect(refused.err(), 'a token the client did not allow').to.contain(`token ${asset} on ${paid.facilitator.network}, which is not allowed`).and.contain(`pass --asset ${asset}`);
    expect(refused.err()).to.not.contain('spendControls');
    expect(refused.err().trim().split('\n')).to.have.length(1);
    expect(await paid.balanceOf(address)).to.equal(before);

    const code = await payCommand(['--url', url, '--asset', asset, '--profile', 'grief-support-peer', request.proposed_text], basic.io, { HUMANLIKE_PRIVATE_KEY: key, HUMANLIKE_STATE_DIR: stateDir });
    expect(code, basic.err()).to.equal(0);
    expect(basic.out()).to.match(/EQ score [0-9.]+/).and.contain('Add to the system prompt:').and.contain('Receipt: {"success":true');
    expect(await paid.balanceOf(address)).to.equal(before - 50_000n);

    const deep = io();
    const deepCode = await payCommand(['--url', url, '--asset', asset, '--profile', 'grief-support-peer', '--deep', '--json', request.proposed_text], deep.io, { HUMANLIKE_PRIVATE_KEY: key, HUMANLIKE_STATE_DIR: stateDir });
    expect(deepCode, deep.err()).to.equal(0);
    const outcome = JSON.parse(deep.out());
    expect(outcome.status).to.equal(200);
    expect(outcome.receipt).to.include({ success: true, payer: address, network: 'eip155:8453' });
    expect(outcome.paid.amount).to.equal('180000');
    expect(outcome.body.rewrite_guidance).to.be.an('array');
    expect(await paid.balanceOf(address)).to.equal(before - 230_000n);
  });

  it('pays another product with --product and --body-file: a script check, printed claim by claim with its receipt', async function () {
    const account = paid.facilitator.payers[4];
    const before = await paid.balanceOf(account.address);
    const bodyFile = join(stateDir, 'script-check.json');
    // The README's example ("Paying for a session"), as a file.
    await writeFile(
      bodyFile,
      JSON.stringify({ reply_text: 'Acme Pro is $5 a month, 40% off. Call (415) 555-2671.', approved_facts: ['Acme Pro costs five dollars a month, 50% off.', 'Phone: +1 415 555 2671'] }),
    );
    const run = io();
    const code = await payCommand(['--url', url, '--asset', paid.facilitator.asset, '--product', 'script-check', '--body-file', bodyFile], run.io, {
      HUMANLIKE_PRIVATE_KEY: account.privateKey,
      HUMANLIKE_STATE_DIR: stateDir,
    });
    expect(code, run.err()).to.equal(0);
    const lines = run.out().trim().split('\n');
    expect(lines.slice(0, 6)).to.deep.equal([
      'Adherence 75 (3 of 4 claims on script; string and number matching, not a factual-accuracy check)',
      '  on  product "Acme Pro" at 0-8',
      '  on  price "$5" at 12-14',
      '  off percentage "40%" at 24-27 (approved: "50%")',
      '  on  phone "(415) 555-2671" at 38-52',
      'Next step: Off script: the percentage "40%" at 24-27; rephrase it from the approved facts (the approved percentage is "50%").',
    ]);
    expect(lines[6]).to.match(/^Result id: [0-9a-f-]{36}; your referral code: HL-/);
    expect(lines[7]).to.equal(`Signed: 0.18 USDC (180000 units of ${paid.facilitator.asset} on ${paid.facilitator.network}) to ${paid.facilitator.treasury}`);
    expect(lines[8]).to.match(/^Receipt: \{"success":true/);
    expect(lines).to.have.length(9);
    expect(await paid.balanceOf(account.address)).to.equal(before - 180_000n);
    const rows = (await paid.stack.deps.dataSource.query(`SELECT product, amount FROM ledger_sessions WHERE payer = $1`, [account.address.toLowerCase()])) as Array<{ product: string; amount: string }>;
    expect(rows).to.deep.equal([{ product: 'script-check', amount: '180000' }]);
    expect(await pendingFiles()).to.deep.equal([]);
  });

  it('never pays a product call twice: a lost answer is replayed with the same authorization', async function () {
    const proxy: FaultyProxy = await startFaultyProxy(url);
    try {
      let seen = 0;
      proxy.events.on('request', () => {
        seen += 1;
        proxy.set('*', seen === 2 ? 'lose-response' : 'pass');
      });
      const account = paid.facilitator.payers[4];
      const before = await paid.balanceOf(account.address);
      const outcome = await payForSession({
        url: proxy.url,
        path: '/api/script-check',
        privateKey: account.privateKey,
        request: { reply_text: 'Call (415) 555-2671.', source_text: 'Phone: 415 555 2671' },
        allowedAssets: [{ network: paid.facilitator.network, asset: paid.facilitator.asset }],
        stateDir,
      });
      expect(outcome.status).to.equal(200);
      expect(outcome.replayed).to.equal(true);
      expect((outcome.body as { adherence_score: number }).adherence_score).to.equal(100);
      expect(seen).to.equal(3);
      expect(await paid.balanceOf(account.address)).to.equal(before - 180_000n);
    } finally {
      await proxy.close();
    }
  });

  it('refuses to sign above --max-amount, and pays nothing', async function () {
    const address = paid.facilitator.payers[6].address;
    const before = await paid.balanceOf(address);
    const run = io();
    const code = await payCommand(['--url', url, '--asset', paid.facilitator.asset, '--profile', 'grief-support-peer', '--deep', '--max-amount', '100000', 'hello there'], run.io, {
      HUMANLIKE_PRIVATE_KEY: paid.facilitator.payers[6].privateKey,
      HUMANLIKE_STATE_DIR: stateDir,
    });
    expect(code).to.equal(1);
    expect(run.err()).to.contain('the quote asks 180000 atomic units (0.18 USDC), above the limit of 100000 (0.10 USDC); raise --max-amount to pay it');
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
        stateDir,
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
    const refused = await payForSession({ url, privateKey: account.privateKey, request, stateDir }).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(PaymentRefusedError);
    expect((refused as PaymentRefusedError).reason).to.equal('asset_not_allowed');
    expect((refused as PaymentRefusedError).offer).to.include({ asset: paid.facilitator.asset, network: paid.facilitator.network, amount: '50000' });
    expect(await paid.balanceOf(account.address)).to.equal(before);
  });

  it('rejects a malformed key with a usage error (exit 2) without contacting the server', async function () {
    const run = io();
    const code = await payCommand(['--url', 'http://127.0.0.1:9', '--profile', 'grief-support-peer', 'hi'], run.io, { HUMANLIKE_PRIVATE_KEY: 'nope', HUMANLIKE_STATE_DIR: stateDir });
    expect(code).to.equal(2);
    expect(run.err()).to.contain('32 bytes of hex');
  });

  it('says which URL could not be reached, and why', async function () {
    const port = await closedPort();
    const run = io();
    const code = await payCommand(['--url', `http://127.0.0.1:${port}`, '--profile', 'grief-support-peer', 'hi'], run.io, {
      HUMANLIKE_PRIVATE_KEY: paid.facilitator.payers[0].privateKey,
      HUMANLIKE_STATE_DIR: stateDir,
    });
    expect(code).to.equal(1);
    expect(run.err()).to.match(new RegExp(`^humanlike pay: could not reach http://127\\.0\\.0\\.1:${port}/api/simulate: connect ECONNREFUSED`));
    expect(run.err().trim().split('\n')).to.have.length(1);
    expect(await pendingFiles(), 'nothing was signed').to.deep.equal([]);
  });

  describe('after an ambiguous answer to a paid request', function () {
    const text = 'That sounds exhausting. Do you want me to take the refund call off your plate tomorrow?';
    const argv = () => ['--url', url, '--asset', paid.facilitator.asset, '--network', paid.facilitator.network, '--profile', 'grief-support-peer', text];

    it('sends the same authorization again after 402 settlement_failed, within --retry-for: one charge, one result', async function () {
      const account = paid.facilitator.payers[1];
      const before = await paid.balanceOf(account.address);
      const rows = await paid.count('ledger_sessions');
      const front = await startFaultyProxy(url);
      try {
        // The facilitator refuses to settle (a reason that proves nothing moved) until the client's
        // second paid request; the server withholds the result with 402 settlement_failed.
        paid.proxy.set('/settle', 'refuse');
        let posts = 0;
        front.events.on('request', () => {
          posts += 1; // 1: unpaid (402 quote); 2: paid, 402 settlement_failed; 3: the same authorization again
          if (posts === 3) paid.proxy.set('/settle', 'pass');
        });
        const run = io();
        const code = await payCommand(['--url', front.url, ...argv().slice(2), '--retry-for', '30'], run.io, { HUMANLIKE_PRIVATE_KEY: account.privateKey, HUMANLIKE_STATE_DIR: stateDir });
        expect(code, run.err()).to.equal(0);
        expect(run.err()).to.contain('HTTP 402 settlement_failed; sending the same signed payment again');
        expect(run.out()).to.match(/EQ score [0-9.]+/);
        expect(posts).to.equal(3);
        expect(await paid.balanceOf(account.address)).to.equal(before - 50_000n);
        expect(await paid.count('ledger_sessions')).to.equal(rows + 1);
        expect(await pendingFiles(), 'forgotten after the final answer').to.deep.equal([]);
      } finally {
        await front.close();
      }
    });

    it('sends the same authorization again after a 503, when its Retry-After says', async function () {
      const account = paid.facilitator.payers[3];
      const before = await paid.balanceOf(account.address);
      const front = await startFaultyProxy(url);
      try {
        // The facilitator is down when the paid request comes: 503 facilitator_unavailable, Retry-After: 5.
        paid.proxy.set('*', 'drop');
        const at: number[] = [];
        front.events.on('request', () => {
          at.push(Date.now());
          if (at.length === 3) paid.proxy.reset();
        });
        const run = io();
        const code = await payCommand(['--url', front.url, ...argv().slice(2)], run.io, { HUMANLIKE_PRIVATE_KEY: account.privateKey, HUMANLIKE_STATE_DIR: stateDir });
        expect(code, run.err()).to.equal(0);
        expect(run.err()).to.equal('humanlike pay: HTTP 503 facilitator_unavailable; sending the same signed payment again in 5.0 s\n');
        expect(at).to.have.length(3);
        expect(at[2] - at[1], 'waited as Retry-After asked').to.be.at.least(4_900);
        expect(await paid.balanceOf(account.address)).to.equal(before - 50_000n);
      } finally {
        await front.close();
      }
    });

    it('across a dropped settle answer: the first run already prints the result, charged once', async function () {
      const account = paid.facilitator.payers[2];
      const env = { HUMANLIKE_PRIVATE_KEY: account.privateKey, HUMANLIKE_STATE_DIR: stateDir };
      const before = await paid.balanceOf(account.address);
      const rows = await paid.count('ledger_sessions');

      // The facilitator moves the money, its answer never comes back: the service reads the chain.
      paid.proxy.set('/settle', 'lose-response');
      const run = io();
      expect(await payCommand([...argv(), '--retry-for', '2'], run.io, env), run.err()).to.equal(0);
      expect(run.out()).to.match(/EQ score [0-9.]+/).and.contain('Receipt: {"success":true');
      expect(await paid.balanceOf(account.address), 'charged once').to.equal(before - 50_000n);
      expect(await paid.count('ledger_sessions')).to.equal(rows + 1);
      expect(await pendingFiles(), 'forgotten after the final answer').to.deep.equal([]);
    });

    it('run twice across a settlement left pending: the second run resumes the kept authorization, charged once', async function () {
      const account = paid.facilitator.payers[4];
      const env = { HUMANLIKE_PRIVATE_KEY: account.privateKey, HUMANLIKE_STATE_DIR: stateDir };
      const before = await paid.balanceOf(account.address);
      const rows = await paid.count('ledger_sessions');

      // First run: the facilitator hangs on settle, the service answers 504 settlement_pending until
      // the client's window runs out; the client keeps the signed payment.
      paid.proxy.set('/settle', 'hang');
      const first = io();
      expect(await payCommand([...argv(), '--retry-for', '2'], first.io, env), first.err()).to.equal(1);
      expect(first.err()).to.contain('settlement_pending');
      expect(first.err()).to.match(/kept in .*pending-payments.*: run the same command again to resume it, it is never charged twice/);
      expect(first.out()).to.equal('');
      const files = await pendingFiles();
      expect(files).to.have.length(1);
      const file = join(stateDir, 'pending-payments', files[0]);
      expect((await stat(file)).mode & 0o777).to.equal(0o600);
      const kept = await readFile(file, 'utf8');
      expect(kept).to.contain('PAYMENT-SIGNATURE');
      expect(kept.toLowerCase()).to.not.contain(account.privateKey.slice(2).toLowerCase());

      // The facilitator acts late on what it held, then answers again.
      expect(await paid.proxy.release('/settle')).to.be.at.least(1);
      paid.proxy.reset();
      expect(await paid.balanceOf(account.address), 'the transfer ran').to.equal(before - 50_000n);

      // Second run, same command: no new signature, the result comes, charged once.
      const second = io();
      expect(await payCommand([...argv(), '--retry-for', '10'], second.io, env), second.err()).to.equal(0);
      expect(await paid.balanceOf(account.address), 'charged once').to.equal(before - 50_000n);
      expect(await paid.count('ledger_sessions')).to.equal(rows + 1);
      expect(second.err()).to.match(/^humanlike pay: resuming the pending payment signed at \d{4}-\d\d-\d\dT[^ ]+ \(0\.05 USDC: 50000 units of 0x[0-9a-fA-F]{40} on eip155:8453\); it is never charged twice\n/);
      expect(second.out()).to.match(/EQ score [0-9.]+/).and.contain('Receipt: {"success":true');
      expect(await pendingFiles(), 'forgotten after the final answer').to.deep.equal([]);
    });

    it('forgets the signed payment on a final refusal (402 for another reason)', async function () {
      // A wallet with no USDC: the facilitator refuses the authorization, which can never be charged.
      const run = io();
      const code = await payCommand([...argv(), '--retry-for', '5'], run.io, { HUMANLIKE_PRIVATE_KEY: generatePrivateKey(), HUMANLIKE_STATE_DIR: stateDir });
      expect(code, run.err()).to.equal(1);
      expect(run.out()).to.match(/^HTTP 402: /);
      expect(run.out()).to.not.contain('settlement_failed');
      expect(run.err(), 'not retried').to.equal('');
      expect(await pendingFiles()).to.deep.equal([]);
    });
  });
});
