import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../../shared/config';
import { createLogger } from '../../../shared/logger';
import { DevStack } from '../../../supervisor/dev-stack';
import { findExecutable, pingRedisAt } from '../../../supervisor/redis-choice';
import { ensureTestDatabase } from '../../helpers/db';
import { closedPort } from '../../helpers/ports';
import { queuePrefix } from '../../helpers/redis';

const ROOT = path.resolve(__dirname, '..', '..', '..');

describe('supervisor/dev-stack DevStack', function () {
  this.timeout(40_000);
  let dataDir: string;
  let stack: DevStack | undefined;

  before(function () {
    if (!findExecutable('redis-server', process.env.PATH ?? '')) this.skip();
    dataDir = mkdtempSync(path.join(tmpdir(), 'humanlike-stack-'));
  });
  after(async function () {
    await stack?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs on DATABASE_URL with a private Redis when none answers, and stops web, worker, then Redis', async function () {
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: await ensureTestDatabase(),
      QUEUE_PREFIX: queuePrefix('dev-stack'),
      SCORING_THREADS: '1',
      SHUTDOWN_GRACE_MS: '3000',
    };
    const failures: string[] = [];
    stack = new DevStack({
      env,
      config: loadConfig(env),
      dataDir,
      rootDir: ROOT,
      redis: { probe: { host: '127.0.0.1', port: await closedPort() }, binary: 'redis-server', searchPath: env.PATH ?? '' },
      log: createLogger({ log: { level: 'silent' } }, 'test'),
      onFailure: (reason) => failures.push(reason),
    });

    const info = await stack.start();
    expect(info).to.include({ database: 'configured', redis: 'private' });
    expect(info.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    const redisPort = Number(new URL(info.redisUrl).port);

    const health = await fetch(`${info.url}/api/healthz`);
    expect(health.status).to.equal(200);
    expect(await health.json()).to.deep.include({ checks: { redis: 'ok', postgres: 'ok' } });

    expect(await stack.stop()).to.equal(true);
    expect(await pingRedisAt('127.0.0.1', redisPort, 500)).to.equal('none');
    const gone = await fetch(`${info.url}/api/healthz`).then(
      () => false,
      () => true,
    );
    expect(gone, 'the API still answers').to.equal(true);
    expect(failures).to.deep.equal([]);
  });
});
