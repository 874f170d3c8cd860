import { Writable } from 'node:stream';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { expect } from 'chai';
import { loadConfig } from '../../../shared/config';
import { createLogger } from '../../../shared/logger';
import { DevStack } from '../../../supervisor/dev-stack';
import { ensureTestDatabase } from '../../helpers/db';
import { closedPort } from '../../helpers/ports';
import { isAlive } from '../../helpers/process';
import { queuePrefix, TEST_REDIS_URL } from '../../helpers/redis';
import { until } from '../../helpers/until';

const ROOT = path.resolve(__dirname, '..', '..', '..');

describe('supervisor/dev-stack DevStack with a worker that keeps crashing', function () {
  this.timeout(60_000);
  let dataDir: string;
  let stack: DevStack | undefined;
  const pids: number[] = [];

  before(function () {
    dataDir = mkdtempSync(path.join(tmpdir(), 'humanlike-crash-loop-'));
  });
  after(async function () {
    await stack?.stop();
    for (const pid of pids) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('restarts it with backoff, then stops the stack on the third crash within the window with one clear reason', async function () {
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: await ensureTestDatabase(),
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: queuePrefix('crash-loop'),
      // No embedded chain: this test pays nothing.
      X402_FACILITATOR_URL: `http://127.0.0.1:${await closedPort()}`,
      SCORING_THREADS: '1',
      SHUTDOWN_GRACE_MS: '3000',
    };
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const failures: string[] = [];
    stack = new DevStack({
      env,
      config: loadConfig(env),
      dataDir,
      rootDir: ROOT,
      redis: { probe: { host: '127.0.0.1', port: await closedPort() }, binary: 'redis-server', searchPath: env.PATH ?? '' },
      log: createLogger({ log: { level: 'info' } }, 'supervisor', stream),
      restart: { maxCrashes: 3, windowMs: 60_000, firstDelayMs: 100, maxDelayMs: 1_000 },
      onFailure: (reason) => failures.push(reason),
    });
    const info = await stack.start();
    const workers = () => lines.filter((l) => l.msg === 'process started' && l.role === 'worker').map((l) => l.pid as number);
    pids.push(...lines.filter((l) => l.msg === 'process started').map((l) => l.pid as number));

    for (let crash = 1; crash <= 3; crash++) {
      const pid = workers().at(-1) as number;
      process.kill(pid, 'SIGKILL');
      if (crash === 3) break;
      await until(() => workers().length === crash + 1, 10_000, `restart ${crash}`);
      pids.push(workers().at(-1) as number);
    }
    await until(() => failures.length > 0, 10_000, 'the stack to give up');

    expect(failures).to.deep.equal(['worker crashed 3 times within 60 s (last exit: signal SIGKILL); its output is above']);
    const restarts = lines.filter((l) => l.msg === 'process crashed; restarting').map((l) => [l.role, l.crashes, l.restartInMs]);
    expect(restarts).to.deep.equal([
      ['worker', 1, 100],
      ['worker', 2, 200],
    ]);
    expect(workers()).to.have.length(3);
    // The web kept serving the whole time.
    expect((await fetch(`${info.url}/api/healthz`)).status).to.equal(200);

    // What main.ts does on a failure: stop the rest. The crashed worker makes it an unclean stop.
    expect(await stack.stop()).to.equal(false);
    for (const pid of pids) expect(isAlive(pid), `pid ${pid}`).to.equal(false);
    const down = await fetch(`${info.url}/api/healthz`).then(
      () => false,
      () => true,
    );
    expect(down, 'the API still answers').to.equal(true);
  });
});
