import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { mintCredential } from '../../../../shared/operators/credentials';
import { queuePrefix } from '../../../helpers/redis';
import { startTestStack, type TestStack } from '../../../helpers/stack';
import { spawnWorker } from '../../../helpers/worker-process';

const SOL_TREASURY = 'So11111111111111111111111111111111111111112';

interface ProcessView {
  instance: string;
  role: 'web' | 'worker';
  simulate_base_lamports: number;
  failure_suspension_cap: number;
  updated_at: string | null;
  current: boolean;
}

// The lamports of the legacy SOL requirement in a 402 body.
function quotedLamports(body: { accepts: Array<{ amount: string; extra?: { unit?: string } }> }): number {
  const sol = body.accepts.filter((a) => a.extra?.unit === 'lamports');
  expect(sol).to.have.length(1);
  return Number(sol[0].amount);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
}

/** One change reaches every web and worker process within a second, and outlives them all. */
describe('the runtime network configuration across web and worker processes', function () {
  this.timeout(120_000);
  const env = { QUEUE_PREFIX: queuePrefix('network-processes'), TREASURY_SOLANA_ADDRESS: SOL_TREASURY };
  let web1: TestStack;
  let web2: TestStack;
  let worker: ChildProcess;
  let token: string;

  const asAdmin = (s: TestStack, method: 'get' | 'patch', path: string) =>
    s.http[method](path).set('X-Forwarded-For', '10.61.0.1').set('Authorization', `Bearer ${token}`);
  const processes = async (s: TestStack) => {
    const r = await asAdmin(s, 'get', '/api/admin/network-config/processes');
    expect(r.status).to.equal(200);
    return r.body as { network_config: { updated_at: string | null }; processes: ProcessView[]; all_current: boolean };
  };
  const startAll = async () => {
    web1 = await startTestStack('network-processes', { worker: false, env });
    web2 = await startTestStack('network-processes', { worker: false, env });
    worker = await spawnWorker(web1);
  };
  const stopAll = async () => {
    try {
      if (worker) await stopChild(worker);
    } finally {
      await web1?.close();
      await web2?.close();
    }
  };

  before(async function () {
    await startAll();
    await web1.deps.dataSource.query('TRUNCATE network_config_changes, network_config, operator_credentials');
    await Promise.all([web1.deps.network.refresh(), web2.deps.network.refresh()]);
    token = (await mintCredential(web1.deps.dataSource, 'admin', 3_600)).token;
  });
  after(async function () {
    try {
      await web1?.deps.dataSource.query('TRUNCATE network_config_changes, network_config, operator_credentials');
    } finally {
      await stopAll();
    }
  });

  it('lists every web and worker process with the defaults before any change', async function () {
    const body = await processes(web2);
    const roles = body.processes.map((p) => p.role).sort();
    expect(roles).to.deep.equal(['web', 'web', 'worker']);
    expect(body.network_config.updated_at).to.equal(null);
    for (const p of body.processes) expect(p).to.include({ simulate_base_lamports: 270_000, failure_suspension_cap: 3, updated_at: null, current: true });
    expect(body.all_current).to.equal(true);
  });

  it('applies a change made through web process 1 in the quotes of web process 2 and in the worker within a second, and after a restart of all of them', async function () {
    const changed = await asAdmin(web1, 'patch', '/api/admin/configure-network').send({ simulate_base_lamports: 410_000, failure_suspension_cap: 7 });
    expect(changed.status).to.equal(200);
    const changedAt = Date.now();
    const version = changed.body.network_config.updated_at as string;

    let quoted = 0;
    let workerView: ProcessView | undefined;
    while (Date.now() - changedAt < 1_000) {
      quoted = quotedLamports((await web2.http.get('/api/simulate')).body);
      workerView = (await processes(web2)).processes.find((p) => p.role === 'worker');
      if (quoted === 410_000 && workerView?.updated_at === version) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(Date.now() - changedAt).to.be.below(1_000);
    expect(quoted).to.equal(410_000);
    expect(workerView).to.include({ simulate_base_lamports: 410_000, failure_suspension_cap: 7, updated_at: version, current: true });
    expect((await processes(web2)).all_current).to.equal(true);

    // Every process stops; new ones read the stored configuration when they start.
    await stopAll();
    await startAll();
    expect(quotedLamports((await web2.http.get('/api/simulate')).body)).to.equal(410_000);
    expect(quotedLamports((await web1.http.get('/api/simulate')).body)).to.equal(410_000);
    const after = await processes(web1);
    expect(after.processes.map((p) => p.role).sort()).to.deep.equal(['web', 'web', 'worker']);
    for (const p of after.processes) expect(p).to.include({ simulate_base_lamports: 410_000, failure_suspension_cap: 7, updated_at: version, current: true });
  });
});
