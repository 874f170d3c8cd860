import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createLogger } from '../../../shared/logger';
import { chooseRedis, findExecutable, noRedisMessage, pingRedisAt, type RedisChoice } from '../../../supervisor/redis-choice';
import { StartupError } from '../../../supervisor/startup-error';
import { closedPort } from '../../helpers/ports';
import { TEST_REDIS_URL } from '../../helpers/redis';
import { isAlive } from '../../helpers/process';

const log = createLogger({ log: { level: 'silent' } }, 'test');
const SEARCH_PATH = process.env.PATH ?? '';


/** A TCP server that answers every connection with one fixed line. */
async function answering(line: string): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => socket.once('data', () => socket.end(`${line}\r\n`)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return { server, port: address.port };
}

describe('supervisor/redis-choice chooseRedis', function () {
  this.timeout(20_000);
  let dataDir: string;
  let chosen: RedisChoice | undefined;

  beforeEach(function () {
    dataDir = mkdtempSync(path.join(tmpdir(), 'humanlike-redis-'));
  });
  afterEach(async function () {
    if (chosen?.source === 'private') await chosen.process.stop(5_000);
    chosen = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('uses REDIS_URL as given, without probing or starting anything', async function () {
    chosen = await chooseRedis({
      configuredUrl: 'redis://redis.example.invalid:6390',
      probe: { host: '127.0.0.1', port: await closedPort() },
      binary: '/nonexistent/redis-server',
      searchPath: '',
      dataDir,
      log,
    });
    expect(chosen).to.deep.equal({ source: 'configured', url: 'redis://redis.example.invalid:6390' });
  });

  it('uses the Redis that answers PING at the probe address', async function () {
    const url = new URL(TEST_REDIS_URL);
    const probe = { host: url.hostname, port: Number(url.port || 6379) };
    chosen = await chooseRedis({ probe, binary: '/nonexistent/redis-server', searchPath: '', dataDir, log });
    expect(chosen).to.deep.equal({ source: 'local', url: `redis://${probe.host}:${probe.port}` });
  });

  it('starts a private redis-server on a free port when nothing answers, and stops it', async function () {
    if (!findExecutable('redis-server', SEARCH_PATH)) this.skip();
    chosen = await chooseRedis({ probe: { host: '127.0.0.1', port: await closedPort() }, binary: 'redis-server', searchPath: SEARCH_PATH, dataDir, log });
    expect(chosen.source).to.equal('private');
    const port = Number(new URL(chosen.url).port);
    expect(await pingRedisAt('127.0.0.1', port, 1_000)).to.equal('pong');
    if (chosen.source !== 'private') return;
    const { pid } = chosen.process;
    const outcome = await chosen.process.stop(5_000);
    chosen = undefined;
    expect(outcome.forced).to.equal(false);
    expect(isAlive(pid)).to.equal(false);
    expect(await pingRedisAt('127.0.0.1', port, 500)).to.equal('none');
  });

  it('starts a private one when the Redis at the probe address refuses PING (a password is set)', async function () {
    if (!findExecutable('redis-server', SEARCH_PATH)) this.skip();
    const { server, port } = await answering('-NOAUTH Authentication required.');
    try {
      expect(await pingRedisAt('127.0.0.1', port, 1_000)).to.equal('refused');
      chosen = await chooseRedis({ probe: { host: '127.0.0.1', port }, binary: 'redis-server', searchPath: SEARCH_PATH, dataDir, log });
      expect(chosen.source).to.equal('private');
    } finally {
      server.close();
    }
  });

  it('fails with one line that says how to install Redis when nothing answers and there is no binary', async function () {
    const probe = { host: '127.0.0.1', port: await closedPort() };
    let err: unknown;
    try {
      chosen = await chooseRedis({ probe, binary: 'redis-server', searchPath: dataDir, dataDir, log });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(StartupError);
    const message = (err as Error).message;
    expect(message).to.equal(noRedisMessage(probe));
    expect(message).not.to.contain('\n');
    expect(message).to.contain('apt-get install redis-server').and.contain('brew install redis').and.contain('REDIS_URL');
  });

  it('reports a redis-server that dies at start, with its log line', async function () {
    // A binary that exists but is not a Redis: `false` exits 1 at once.
    const falseBinary = findExecutable('false', SEARCH_PATH);
    if (!falseBinary) this.skip();
    let err: unknown;
    try {
      chosen = await chooseRedis({ probe: { host: '127.0.0.1', port: await closedPort() }, binary: falseBinary, searchPath: '', dataDir, log });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(StartupError);
    expect((err as Error).message).to.match(/^redis-server exited at start/);
  });
});
