import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { isAlive } from '../../helpers/process';
import { queuePrefix } from '../../helpers/redis';
import { startNpmStart, type LogEntry, type RunningStack } from './npm-start';

const started = (role: string, notPid?: number) => (e: LogEntry) => e.msg === 'process started' && e.role === role && e.pid !== notPid;
const restarted = (role: string, pid: number) => (e: LogEntry) => e.msg === 'process restarted' && e.role === role && e.pid === pid;

/** A crashed web or worker under `npm start` is restarted; the rest of the stack stays up. */
describe('npm start restarts a crashed web or worker (supervisor/main from dist)', function () {
  this.timeout(120_000);
  let dataDir: string;
  let stack: RunningStack | undefined;

  before(function () {
    dataDir = mkdtempSync(path.join(tmpdir(), 'humanlike-restart-'));
  });
  after(function () {
    stack?.killAll();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps answering after a SIGKILLed worker and web, and still takes payments on the same chain', async function () {
    stack = await startNpmStart({ DATA_DIR: dataDir, PORT: '0', QUEUE_PREFIX: queuePrefix('restart') });
    const s = stack;
    const first = await s.pay('Oh no, I am so sorry. Want to talk tonight?');
    expect(first.status, JSON.stringify(first.body)).to.equal(200);

    const worker = (await s.waitForLog(started('worker'), 1_000)).pid as number;
    process.kill(worker, 'SIGKILL');
    // The web does not need the worker to answer its health check.
    const health = await fetch(`${s.url}/api/healthz`);
    expect(health.status).to.equal(200);
    const newWorker = (await s.waitForLog(started('worker', worker), 15_000)).pid as number;
    await s.waitForLog(restarted('worker', newWorker), 30_000);
    expect(s.logs.find((e) => e.msg === 'process crashed; restarting')).to.include({ role: 'worker', exit: 'signal SIGKILL', crashes: 1 });

    // The embedded chain lives in the supervisor: the payer's second payment settles on the same chain.
    const second = await s.pay('That sounds so hard. I am here if you want to talk.');
    expect(second.status, JSON.stringify(second.body)).to.equal(200);
    expect(second.receipt).to.include({ success: true, network: 'eip155:8453' });
    expect(second.receipt?.transaction).not.to.equal(first.receipt?.transaction);

    // A restarted web answers on the URL that was printed (PORT=0 picked the port once).
    const web = (await s.waitForLog(started('web'), 1_000)).pid as number;
    process.kill(web, 'SIGKILL');
    const newWeb = (await s.waitForLog(started('web', web), 15_000)).pid as number;
    await s.waitForLog(restarted('web', newWeb), 30_000);
    const again = await fetch(`${s.url}/api/healthz`);
    expect(again.status).to.equal(200);

    s.child.kill('SIGTERM');
    expect(await s.exited, s.stderr()).to.deep.equal({ code: 0, signal: null });
    // At least the web, the worker and the web that replaced the killed one were children.
    expect(s.childPids().length).to.be.at.least(3);
    for (const pid of s.childPids()) expect(isAlive(pid), `pid ${pid}`).to.equal(false);
    const stopped = s.logs.filter((e) => e.msg === 'process stopped').map((e) => [e.role, e.code, e.forced]);
    expect(stopped).to.deep.equal([
      ['web', 0, false],
      ['worker', 0, false],
    ]);
  });
});
