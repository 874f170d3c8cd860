import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** Runs an entry file under tsx and collects its output and exit code. */
function run(entry: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, entry)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

// Nothing may be reached: the refusal comes before any connection (a port nobody listens on proves it).
const UNREACHABLE = { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', REDIS_URL: 'redis://127.0.0.1:1', LOG_LEVEL: 'info' };

describe('TRUSTED_PROXY_HOPS without PUBLIC_BASE_URL', function () {
  this.timeout(60_000);

  it('web refuses to start with one line that names both variables, before it connects to anything', async function () {
    const r = await run('api/server.ts', { ...UNREACHABLE, TRUSTED_PROXY_HOPS: '2' });
    expect(r.code).to.equal(1);
    expect(r.stdout).to.equal('');
    expect(r.stderr.trimEnd().split('\n')).to.deep.equal([
      'api failed to start: TRUSTED_PROXY_HOPS is 2 but PUBLIC_BASE_URL is unset: behind a proxy the service does not guess its public address from forwarded headers; set PUBLIC_BASE_URL to it (e.g. https://humanlike.example.com)',
    ]);
  });

  it('npm start refuses the same configuration before it starts a database, Redis or chain', async function () {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'humanlike-proxy-'));
    try {
      const r = await run('supervisor/main.ts', { ...UNREACHABLE, DATA_DIR: path.join(dataDir, 'data'), TRUSTED_PROXY_HOPS: '1' });
      expect(r.code).to.equal(1);
      expect(r.stderr.trimEnd().split('\n')).to.have.length(1);
      expect(r.stderr).to.match(/^npm start: TRUSTED_PROXY_HOPS is 1 but PUBLIC_BASE_URL is unset: .*set PUBLIC_BASE_URL/);
      expect(existsSync(path.join(dataDir, 'data')), 'no data folder made').to.equal(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('web gets past the check once PUBLIC_BASE_URL is set (and then fails on the unreachable database, as it should)', async function () {
    const r = await run('api/server.ts', { ...UNREACHABLE, TRUSTED_PROXY_HOPS: '1', PUBLIC_BASE_URL: 'https://humanlike.example' });
    expect(r.code).to.equal(1);
    expect(r.stderr).to.not.match(/PUBLIC_BASE_URL/);
    expect(r.stderr).to.match(/^api failed to start: /);
  });
});
