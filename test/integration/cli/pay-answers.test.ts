import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createApp } from '../../../api/app';
import { PAY_JSON_MEMBERS } from '../../../cli/pay/stable-json';
import { runCli } from '../../helpers/cli';
import { seedLedgerSessions } from '../../helpers/ledger-seed';
import { startPaidStack, type PaidStack } from '../../helpers/paid-stack';

const GRIEF = 'grief-support-peer';
const TARGETS = { empathy: { target: 0.6, tolerance: 0.1 }, formality: { target: 0.4, tolerance: 0.1 } };

/** Every object's keys, at every depth, are in code-point order. */
function keysSorted(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(keysSorted);
  if (value === null || typeof value !== 'object') return true;
  const keys = Object.keys(value);
  return keys.every((k, i) => i === 0 || keys[i - 1] < k) && Object.values(value).every(keysSorted);
}

describe('humanlike pay: what each product prints (CLI against a real stack)', function () {
  this.timeout(120_000);
  let paid: PaidStack;
  let server: Server;
  let url: string;
  let dir: string;

  before(async function () {
    paid = await startPaidStack('cli-pay-answers');
    server = createApp(paid.stack.deps).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await paid.stack.truncate();
  });
  beforeEach(async function () {
    dir = await mkdtemp(join(tmpdir(), 'humanlike-pay-answers-'));
  });
  afterEach(async function () {
    await rm(dir, { recursive: true, force: true });
  });
  after(async function () {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await paid?.close();
  });

  const pay = (payer: number, args: string[]) =>
    runCli(['pay', '--url', url, '--asset', paid.facilitator.asset, ...args], {
      HUMANLIKE_PRIVATE_KEY: paid.facilitator.payers[payer].privateKey,
      HUMANLIKE_STATE_DIR: dir,
    });

  async function seedHistory(payer: number): Promise<void> {
    await seedLedgerSessions(paid.stack.deps.dataSource, {
      payer: paid.facilitator.payers[payer].address.toLowerCase(),
      profile: GRIEF,
      scores: [52, 58, 63, 69, 74, 78],
      targets: TARGETS,
      measured: (i) => ({ empathy: 0.4 + i * 0.04, formality: 0.45 }),
      tag: `cli${payer}`, // no hyphen: the seed numbers its rows from the nonce's third part
    });
  }

  it('progress: a summary of the trend, streak, gaps and latest sessions, not a JSON wall', async function () {
    await seedHistory(0);
    const run = await pay(0, ['--product', 'progress', '--body', '{}']);
    expect(run.code, run.err).to.equal(0);
    const lines = run.out.trimEnd().split('\n');
    expect(lines[0]).to.equal(`6 scored sessions (6 in this report); main profile ${GRIEF}`);
    expect(lines[1]).to.match(/^Trend: improving, \+[0-9.]+ EQ per session \(average [0-9.]+ -> [0-9.]+ over \d+ sessions\)$/);
    expect(lines[2]).to.match(/^Pass streak: 2 now, best 2/);
    expect(lines[3]).to.match(/^Dimension gaps \(measured - target, on grief-support-peer\): empathy -0\.\d+, formality \+0\.05$/);
    expect(lines).to.include('Latest 5 (oldest first):').and.include('Charts: the trend and the dimension gaps as SVG in charts (save the answer with --out FILE)');
    expect(lines.filter((l) => l.startsWith('  2026-01-01 simulate grief-support-peer '))).to.have.length(5);
    expect(lines.at(-3)).to.match(/^Result id: [0-9a-f-]{36}; your referral code: HL-/);
    expect(lines.at(-2)).to.match(/^Signed: 0\.18 USDC \(180000 units of 0x[0-9a-fA-F]{40} on eip155:8453\) to 0x/);
    expect(run.out).to.not.contain('{\n');
  });

  it('training dataset: --out writes real JSON Lines (manifest, one line per session, end) and the summary says so', async function () {
    await seedHistory(1);
    const file = join(dir, 'dataset.jsonl');
    const run = await pay(1, ['--product', 'training-dataset', '--body', '{"include_text": false}', '--out', file]);
    expect(run.code, run.err).to.equal(0);
    const text = await readFile(file, 'utf8');
    const records = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { record_type: string; records?: number; metrics?: { eq_score: number } });
    expect(records.map((r) => r.record_type)).to.deep.equal(['manifest', 'session', 'session', 'session', 'session', 'session', 'session', 'end']);
    expect(records[0].records).to.equal(6);
    expect(records.slice(1, 7).map((r) => r.metrics?.eq_score)).to.deep.equal([52, 58, 63, 69, 74, 78]);
    expect(text.endsWith('}\n')).to.equal(true);
    expect(run.out.split('\n').slice(0, 2)).to.deep.equal([
      'Training dataset (humanlike.training-dataset.v1): 6 session records, metrics only',
      `Written to ${file} as JSON Lines: a manifest line, 6 session lines, an end line`,
    ]);
  });

  it('--json: the members in their fixed order and every key sorted; --out writes the same body', async function () {
    const file = join(dir, 'stress.json');
    const body = JSON.stringify({ proposed_text: 'Certainly! Please restart the router and let me know if the issue persists.', response_delay_seconds: 4 });
    const run = await pay(2, ['--product', 'stress-test', '--body', body, '--json', '--out', file]);
    expect(run.code, run.err).to.equal(0);
    expect(run.out.trimEnd().split('\n'), 'one line').to.have.length(1);
    const printed = JSON.parse(run.out) as Record<string, unknown>;
    expect(Object.keys(printed)).to.deep.equal([...PAY_JSON_MEMBERS]);
    expect(keysSorted(printed.body) && keysSorted(printed.receipt) && keysSorted(printed.paid)).to.equal(true);
    expect(Object.keys(printed.body as object)).to.include.members(['profile_count', 'prompt_fixes', 'result_id', 'strongest', 'weakest']);
    const written = await readFile(file, 'utf8');
    expect(written).to.equal(`${JSON.stringify(printed.body, null, 2)}\n`);
  });

  it('duel: the opener is told where to challenge, the joiner who won', async function () {
    const leg = { target_profile: GRIEF, prompt_id: 1, response_delay_seconds: 40 };
    const open = await pay(3, ['--product', 'duel', '--body', JSON.stringify({ ...leg, proposed_text: 'Oh no. Do you want me to sort the refund so you can rest?' })]);
    expect(open.code, open.err).to.equal(0);
    const opened = open.out.split('\n');
    const id = /^Duel ([0-9a-f-]{36}) opened on prompt 1 against grief-support-peer; open until \d{4}-/.exec(opened[0])?.[1];
    expect(id, opened[0]).to.be.a('string');
    expect(opened[1]).to.match(/^Your leg: EQ score [0-9.]+ \((passed|not passed)\); human-likeness [0-9.]+$/);
    expect(opened[2]).to.match(new RegExp(`^Challenge another bot: \\S+/api/duel/${id} `));
    const join = await pay(4, ['--product', 'duel', '--body', JSON.stringify({ ...leg, duel_id: id, proposed_text: 'Certainly! I understand. Please wait.' })]);
    expect(join.code, join.err).to.equal(0);
    expect(open.out).to.match(/\nResult id: [0-9a-f-]{36}; your referral code: HL-/);
    expect(join.out.split('\n')[0]).to.match(new RegExp(`^Duel ${id} on prompt 1 against grief-support-peer: (you won|you lost|a draw) \\(challenger [0-9.]+, opponent [0-9.]+\\)$`));
  });

  it('role-play and bundle: the secret shown once stands on its own line, naming its header', async function () {
    const room = await pay(5, ['--product', 'roleplay', '--body', JSON.stringify({ profile: GRIEF, open_to_any_partner: true })]);
    expect(room.code, room.err).to.equal(0);
    expect(room.out.split('\n')[0]).to.match(/^Role-play room [0-9a-f-]{36} \(\/api\/roleplay\/[0-9a-f-]{36}\): profile grief-support-peer, open to any partner; state open/);
    expect(room.out.split('\n')[1]).to.match(/^Session secret \(shown this once, keep it secret; send it in X-ROLEPLAY-SECRET\): \S{20,}$/);

    const bundle = await pay(6, ['--max-amount', '42500000', '--product', 'bundle', '--body', '{"plan": "bundle"}']);
    expect(bundle.code, bundle.err).to.equal(0);
    expect(bundle.out.split('\n')[0]).to.match(/^Bundle [0-9a-f-]{36} \(bundle\): 1000 of 1000 basic credits for wallet 0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}$/);
    expect(bundle.out.split('\n')[1]).to.match(/^Bundle token \(shown this once, keep it secret; send it in X-BUNDLE-TOKEN on a basic POST \/api\/simulate\): \S{20,}$/);
  });

  it('refuses an --out it cannot write before anything is signed (exit 2)', async function () {
    const run = await pay(7, ['--product', 'progress', '--body', '{}', '--out', join(dir, 'missing', 'x.json')]);
    expect(run.code).to.equal(2);
    expect(run.err).to.match(/--out .*missing\/x\.json cannot be written: ENOENT/);
    expect(await paid.count('payment_authorizations')).to.be.a('number');
    const rows = (await paid.stack.deps.dataSource.query(`SELECT count(*)::int AS n FROM payment_authorizations WHERE payer = $1`, [paid.facilitator.payers[7].address.toLowerCase()])) as Array<{ n: number }>;
    expect(rows[0].n).to.equal(0);
  });
});
