import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { expect } from 'chai';
import { main as cli } from '../../../cli/main';
import { payForSession } from '../../../cli/pay/pay-for-session';
import { readBanner } from './npm-start';
import { closedPort } from '../../helpers/ports';
import { queuePrefix } from '../../helpers/redis';
import { isAlive } from '../../helpers/process';

const ROOT = path.resolve(__dirname, '..', '..', '..');


function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** `npm start` with no DATABASE_URL, as a real process tree: supervisor, embedded database, web, worker. */
describe('npm start (supervisor/main)', function () {
  // First start in an empty data folder: PGlite's initdb takes most of it (about 10 s here).
  this.timeout(45_000);
  let dataDir: string;
  let supervisor: ChildProcess | undefined;
  const childPids: number[] = [];

  before(function () {
    dataDir = mkdtempSync(path.join(tmpdir(), 'humanlike-start-'));
  });
  after(function () {
    // Only if the test failed half-way: nothing of the tree may outlive the run.
    for (const pid of [supervisor?.pid, ...childPids]) {
      if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('comes up healthy on the embedded database, scores through the queue and worker, and stops cleanly on SIGTERM', async function () {
    const port = await closedPort();
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      QUEUE_PREFIX: queuePrefix('start'),
      LOG_LEVEL: 'info',
      SCORING_THREADS: '1',
      SHUTDOWN_GRACE_MS: '5000',
    };
    // CI has a Redis on 127.0.0.1:6379, which the supervisor finds by itself; honour a test override.
    if (process.env.TEST_REDIS_URL) env.REDIS_URL = process.env.TEST_REDIS_URL;

    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'supervisor', 'main.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    supervisor = child;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const logs: Array<Record<string, unknown>> = [];
    const notJson: string[] = [];
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) {
        notJson.push(line);
        return;
      }
      const entry = JSON.parse(line) as Record<string, unknown>;
      logs.push(entry);
      if (entry.msg === 'process started') childPids.push(entry.pid as number);
    });
    // The banner is for the person at the terminal: on stderr, framed, after every startup line.
    const printed = await new Promise<string[]>((resolve, reject) => {
      void readBanner(child.stderr!).then(resolve);
      void exited.then(({ code }) => reject(new Error(`npm start exited with ${code} before it was ready: ${stderr}`)));
    });
    const line = printed[0];
    expect(line).to.match(/^humanlike is running at /);
    expect(logs.find((e) => e.msg === 'stack ready')).to.include({ url: `http://127.0.0.1:${port}`, database: 'embedded' });
    expect(notJson, 'stdout holds JSON log lines only').to.deep.equal([]);
    const base = `http://127.0.0.1:${port}`;
    expect(line).to.contain(`http://127.0.0.1:${port}`).and.contain('embedded PostgreSQL');
    const pglitePort = logs.find((e) => e.msg === 'embedded postgres started')?.port as number;
    expect(pglitePort).to.be.a('number');
    expect(childPids).to.have.length(2);

    const health = await fetch(`${base}/api/healthz`);
    expect(health.status).to.equal(200);
    expect(await health.json()).to.deep.equal({ status: 'ok', checks: { redis: 'ok', postgres: 'ok' } });

    const score = await fetch(`${base}/api/score`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ data_consent: true, proposed_text: 'Oh no, I am so sorry. Do you want to talk about it tonight?', target_profile: 'grief-support-peer' }),
    });
    const body = (await score.json()) as { score: { profile: string; human_likeness: number }; free_tier: { used: number } };
    expect(score.status, JSON.stringify(body)).to.equal(200);
    expect(body.score.profile).to.equal('grief-support-peer');
    expect(body.score.human_likeness).to.be.within(0, 100);
    expect(body.free_tier.used).to.equal(1);

    // Both printed test wallets pay through the embedded facilitator and chain: the first a basic and
    // a deep session, the second a basic one.
    const [privateKey, secondKey] = [...printed.join('\n').matchAll(/private key .*: (0x[0-9a-f]{64})$/gm)].map((m) => m[1]);
    const asset = /--asset (0x[0-9a-fA-F]{40})/.exec(printed.join('\n'))?.[1];
    expect(privateKey, printed.join('\n')).to.be.a('string');
    expect(secondKey, printed.join('\n')).to.be.a('string').and.not.equal(privateKey);
    expect(asset).to.be.a('string');
    for (const [key, tier] of [[privateKey, 'basic'], [privateKey, 'deep'], [secondKey, 'basic']] as const) {
      const outcome = await payForSession({
        url: base,
        privateKey: key as `0x${string}`,
        allowedAssets: [{ network: 'eip155:8453', asset: asset as string }],
        request: { proposed_text: 'Oh no, I am so sorry. Want to talk tonight?', response_delay_seconds: 20, target_profile: 'grief-support-peer', tier },
      });
      expect(outcome.status, JSON.stringify(outcome.body)).to.equal(200);
      expect(outcome.receipt).to.include({ success: true, network: 'eip155:8453' });
      expect(outcome.paid?.amount).to.equal(tier === 'basic' ? '50000' : '180000');
    }

    // The operator tools reach this stack's embedded database with no DATABASE_URL: npm start
    // recorded it in the data folder, readable by its owner only.
    const urlFile = path.join(dataDir, 'database-url');
    expect(statSync(urlFile).mode & 0o777).to.equal(0o600);
    const out = new PassThrough();
    let minted = '';
    out.on('data', (c: Buffer) => (minted += c.toString()));
    const code = await cli(['admin', 'token', 'create', '--role', 'admin', '--ttl', '1h', '--json'], { stdin: new PassThrough(), stdout: out, stderr: new PassThrough(), color: false }, {
      DATA_DIR: dataDir,
    });
    expect(code, minted).to.equal(0);
    const { token } = JSON.parse(minted) as { token: string };
    const admin = await fetch(`${base}/api/admin/network-config`, { headers: { Authorization: `Bearer ${token}` } });
    expect(admin.status).to.equal(200);

    child.kill('SIGTERM');
    expect(await exited, stderr).to.deep.equal({ code: 0, signal: null });
    expect(existsSync(urlFile), 'the database URL file outlives the stack').to.equal(false);
    expect(stderr).not.to.match(/error|fail/i);
    for (const pid of childPids) expect(isAlive(pid), `pid ${pid}`).to.equal(false);
    expect(await listening(port), 'API port').to.equal(false);
    expect(await listening(pglitePort), 'database port').to.equal(false);
    const stopped = logs.filter((e) => e.msg === 'process stopped').map((e) => [e.role, e.code, e.forced]);
    expect(stopped).to.deep.equal([
      ['web', 0, false],
      ['worker', 0, false],
    ]);
  });
});
