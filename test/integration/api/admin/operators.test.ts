import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import supertest from 'supertest';
import { createApp } from '../../../../api/app';
import { writeStackDatabaseUrl } from '../../../../shared/stack-files';
import { createLogger } from '../../../../shared/logger';
import { hashToken } from '../../../../shared/operators/credentials';
import { simulateBody } from '../../../fixtures/builders';
import { queuePrefix } from '../../../helpers/redis';
import { startTestStack, type TestStack } from '../../../helpers/stack';
import { runCli } from '../../../helpers/cli';

const SOL_TREASURY = 'So11111111111111111111111111111111111111112';
const WALLET = '0x1111111111111111111111111111111111111111';

const cli = runCli;

interface Minted {
  id: string;
  role: string;
  token: string;
  expires_at: string;
}

// The lamports of the legacy SOL requirement in a 402 body.
function quotedLamports(body: { accepts: Array<{ asset: string; amount: string }> }): number {
  const sol = body.accepts.filter((a) => a.asset !== undefined && (a as { extra?: { unit?: string } }).extra?.unit === 'lamports');
  expect(sol).to.have.length(1);
  return Number(sol[0].amount);
}

describe('operators: credentials and the runtime network configuration', function () {
  this.timeout(60_000);
  const prefix = queuePrefix('operators');
  const env = { QUEUE_PREFIX: prefix, TREASURY_SOLANA_ADDRESS: SOL_TREASURY };
  let a: TestStack;
  let b: TestStack;
  let url: string;
  let admin: Minted;
  let operator: Minted;
  let expired: Minted;
  let revoked: Minted;

  async function mint(role: string, ttl = '1d'): Promise<Minted> {
    const r = await cli(['admin', 'token', 'create', '--role', role, '--ttl', ttl, '--label', 'test', '--json'], url);
    expect(r.err).to.equal('');
    expect(r.code).to.equal(0);
    return JSON.parse(r.out) as Minted;
  }

  async function resetTables(): Promise<void> {
    await a.deps.dataSource.query('TRUNCATE network_config_changes, network_config, operator_credentials, outreach_status');
  }

  before(async function () {
    a = await startTestStack('operators', { worker: false, env });
    b = await startTestStack('operators', { worker: false, env });
    url = a.config.db.url!;
    await resetTables();
    await a.deps.network.refresh();
    await b.deps.network.refresh();
    admin = await mint('admin');
    operator = await mint('operator');
    expired = await mint('admin');
    await a.deps.dataSource.query(`UPDATE operator_credentials SET created_at = now() - interval '2 days', expires_at = now() - interval '1 day' WHERE id = $1`, [expired.id]);
    revoked = await mint('admin');
    const r = await cli(['admin', 'token', 'revoke', revoked.id], url);
    expect(r.code).to.equal(0);
    expect(r.out).to.contain(`revoked ${revoked.id}`);
  });

  after(async function () {
    try {
      await resetTables();
    } finally {
      await a?.close();
      await b?.close();
    }
  });

  describe('humanlike admin token', function () {
    it('stores only the hash of a minted token, with its role and expiry', async function () {
      expect(admin.token).to.match(/^hlo_[A-Za-z0-9_-]{43}$/);
      const rows = (await a.deps.dataSource.query(`SELECT role, token_hash, expires_at FROM operator_credentials WHERE id = $1`, [admin.id])) as Array<{
        role: string;
        token_hash: string;
        expires_at: Date;
      }>;
      expect(rows).to.have.length(1);
      expect(rows[0].role).to.equal('admin');
      expect(rows[0].token_hash).to.equal(hashToken(admin.token));
      const dump = JSON.stringify(await a.deps.dataSource.query('SELECT * FROM operator_credentials'));
      expect(dump).not.to.contain(admin.token.slice(4));
      const dayAhead = Date.now() + 86_400_000;
      expect(Math.abs(rows[0].expires_at.getTime() - dayAhead)).to.be.below(60_000);
    });

    it('lists credentials with their status and never a token', async function () {
      const r = await cli(['admin', 'token', 'list', '--json'], url);
      expect(r.code).to.equal(0);
      const listed = JSON.parse(r.out) as Array<{ id: string; status: string }>;
      expect(Object.fromEntries(listed.map((c) => [c.id, c.status]))).to.deep.equal({
        [admin.id]: 'active',
        [operator.id]: 'active',
        [expired.id]: 'expired',
        [revoked.id]: 'revoked',
      });
      expect(r.out).not.to.contain('hlo_');
    });

    it('finds the database a running npm start recorded in its data folder when DATABASE_URL is unset, and says where it looked otherwise', async function () {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'humanlike-admin-'));
      try {
        const missing = await cli(['admin', 'token', 'list'], { DATA_DIR: dataDir });
        expect(missing.code).to.equal(2);
        expect(missing.err).to.contain('DATABASE_URL is not set').and.contain(path.join(dataDir, 'database-url')).and.contain('npm start');
        writeStackDatabaseUrl(dataDir, url);
        const listed = await cli(['admin', 'token', 'list', '--json'], { DATA_DIR: dataDir });
        expect(listed.code, listed.err).to.equal(0);
        expect((JSON.parse(listed.out) as Array<{ id: string }>).map((c) => c.id)).to.include(admin.id);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    it('refuses a bad role or lifetime with one usage line and exit status 2', async function () {
      const role = await cli(['admin', 'token', 'create', '--role', 'root', '--ttl', '1d'], url);
      expect(role.code).to.equal(2);
      const ttl = await cli(['admin', 'token', 'create', '--role', 'admin', '--ttl', '30 days'], url);
      expect(ttl.code).to.equal(2);
      expect(ttl.err).to.match(/^humanlike: --ttl must be a lifetime/);
      const unknown = await cli(['admin', 'token', 'revoke', '00000000-0000-4000-8000-000000000000'], url);
      expect(unknown.code).to.equal(1);
    });
  });

  describe('the operator guard', function () {
    const PATHS: Array<{ method: 'get' | 'patch' | 'post'; path: string; role: 'admin' | 'operator' }> = [
      { method: 'get', path: '/api/admin/network-config', role: 'admin' },
      { method: 'get', path: '/api/admin/network-config/processes', role: 'admin' },
      { method: 'patch', path: '/api/admin/configure-network', role: 'admin' },
      { method: 'get', path: '/api/admin/not-served-yet', role: 'admin' },
      { method: 'get', path: '/admin/queues', role: 'admin' },
      { method: 'get', path: '/admin/queues/api/queues', role: 'admin' },
      { method: 'get', path: '/api/operator/corpus-insights', role: 'operator' },
      { method: 'get', path: '/api/operator/public-results/conversion', role: 'operator' },
      { method: 'get', path: '/api/outreach/status', role: 'operator' },
      { method: 'post', path: '/api/outreach/status', role: 'operator' },
      { method: 'get', path: '/metrics', role: 'operator' },
    ];
    let n = 0;
    // Each request from its own caller, so the refusals here do not add up to the rate limit.
    const call = (method: 'get' | 'patch' | 'post', path: string, token?: string) => {
      n += 1;
      const req = a.http[method](path).set('X-Forwarded-For', `10.20.${Math.floor(n / 250)}.${n % 250}`);
      if (method === 'patch') req.send({ simulate_base_lamports: 999_999 });
      if (method === 'post') req.send({ 'lead-1': true });
      return token === undefined ? req : req.set('Authorization', `Bearer ${token}`);
    };

    for (const { method, path, role } of PATHS) {
      it(`${method.toUpperCase()} ${path} answers 401 without a credential, with a bad, an expired or a revoked one, and 403 with the other role`, async function () {
        const none = await call(method, path);
        expect(none.status).to.equal(401);
        expect(none.body.error.code).to.equal('credential_required');
        // The dashboard is a page: browsers prompt for Basic credentials (the token as the password).
        expect(none.headers['www-authenticate']).to.equal(
          path.startsWith('/admin/') ? 'Basic realm="humanlike-operators", charset="UTF-8"' : 'Bearer realm="humanlike-operators"',
        );

        const bad = await call(method, path, `hlo_${'A'.repeat(43)}`);
        expect([bad.status, bad.body.error.code]).to.deep.equal([401, 'credential_invalid']);
        const notBearer = await call(method, path).set('Authorization', `Basic ${admin.token}`);
        expect([notBearer.status, notBearer.body.error.code]).to.deep.equal([401, 'credential_invalid']);

        // The expired and revoked credentials are admin ones: valid for the admin paths but for their state.
        const exp = await call(method, path, expired.token);
        expect([exp.status, exp.body.error.code]).to.deep.equal([401, 'credential_expired']);
        const rev = await call(method, path, revoked.token);
        expect([rev.status, rev.body.error.code]).to.deep.equal([401, 'credential_revoked']);

        const wrong = await call(method, path, role === 'admin' ? operator.token : admin.token);
        expect([wrong.status, wrong.body.error.code]).to.deep.equal([403, 'credential_wrong_role']);
        for (const r of [none, bad, notBearer, exp, rev, wrong]) expect(JSON.stringify(r.body)).not.to.match(/simulate_base_lamports|failure_suspension_cap|process_cpu|lead-1|clean_samples|paid_calls/);
      });
    }

    it('changed nothing for the refused outreach updates', async function () {
      const rows = (await a.deps.dataSource.query('SELECT count(*)::int AS n FROM outreach_status')) as Array<{ n: number }>;
      expect(rows[0].n).to.equal(0);
    });

    it('lets the right role through (a path no route serves is then a 404)', async function () {
      const ok = await call('get', '/api/admin/network-config', admin.token);
      expect(ok.status).to.equal(200);
      const missing = await call('get', '/api/admin/not-served-yet', admin.token);
      expect(missing.status).to.equal(404);
    });

    it('rate limits failed attempts per caller (429 even for a valid token), without logging the token', async function () {
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(...chunk.toString().split('\n').filter(Boolean));
          done();
        },
      });
      const logged = supertest(createApp({ ...a.deps, logger: createLogger({ log: { level: 'info' } }, 'test', sink) }).callback());
      const guess = `hlo_${'B'.repeat(43)}`;
      const limit = a.config.operators.authFailureLimit;
      for (let i = 0; i < limit; i++) {
        const r = await logged.get('/metrics').set('X-Forwarded-For', '10.99.0.1').set('Authorization', `Bearer ${guess}`);
        expect(r.status).to.equal(401);
      }
      const limited = await logged.get('/metrics').set('X-Forwarded-For', '10.99.0.1').set('Authorization', `Bearer ${operator.token}`);
      expect(limited.status).to.equal(429);
      expect(limited.body.error.code).to.equal('too_many_failed_credentials');
      expect(Number(limited.headers['retry-after'])).to.be.within(1, a.config.operators.authFailureWindowSeconds);
      const other = await logged.get('/api/admin/network-config').set('X-Forwarded-For', '10.99.0.2').set('Authorization', `Bearer ${admin.token}`);
      expect(other.status).to.equal(200);

      expect(lines.filter((l) => l.includes('operator credential refused'))).to.have.length(limit);
      expect(lines.join('\n')).not.to.contain('B'.repeat(20));
      expect(lines.join('\n')).not.to.contain(operator.token.slice(4));
      expect(lines.join('\n')).not.to.contain(admin.token.slice(4));
    });
  });

  describe('the queue dashboard', function () {
    const TEXT = 'My secret reply about the flight refund, please keep it private';

    it('shows every queue to an admin (Bearer, or Basic with the token as password), with submitted text redacted from job data', async function () {
      const job = await a.deps.scoringQueue.add('score-text', { input: { text: TEXT, profile: 'grief-support-peer', delaySeconds: 12 } });
      try {
        const page = await a.http.get('/admin/queues').set('X-Forwarded-For', '10.50.0.1').set('Authorization', `Bearer ${admin.token}`);
        expect(page.status).to.equal(200);
        expect(page.headers['content-type']).to.match(/^text\/html/);
        const basic = Buffer.from(`admin:${admin.token}`).toString('base64');
        const api = await a.http
          .get('/admin/queues/api/queues?activeQueue=scoring&status=waiting&page=1')
          .set('X-Forwarded-For', '10.50.0.1')
          .set('Authorization', `Basic ${basic}`);
        expect(api.status).to.equal(200);
        const queues = api.body.queues as Array<{ name: string; jobs: Array<{ id: string; data: { input: Record<string, unknown> } }> }>;
        expect(queues.map((q) => q.name).sort()).to.deep.equal(['exports', 'maintenance', 'scoring', 'settlement', 'stress']);
        const shown = queues.find((q) => q.name === 'scoring')!.jobs.filter((j) => j.id === job.id);
        expect(shown).to.have.length(1);
        expect(shown[0].data.input).to.deep.equal({ text: `[redacted: ${TEXT.length} characters]`, profile: 'grief-support-peer', delaySeconds: 12 });
        expect(api.text).not.to.contain('flight refund');
        const one = await a.http.get(`/admin/queues/api/queues/scoring/${job.id}`).set('X-Forwarded-For', '10.50.0.1').set('Authorization', `Bearer ${admin.token}`);
        expect(one.status).to.equal(200);
        expect(one.text).not.to.contain('flight refund');
      } finally {
        await job.remove();
      }
    });
  });

  describe('the runtime network configuration', function () {
    const asAdmin = (s: TestStack) => ({
      get: (path: string) => s.http.get(path).set('X-Forwarded-For', '10.30.0.1').set('Authorization', `Bearer ${admin.token}`),
      patch: (path: string, body: object) => s.http.patch(path).set('X-Forwarded-For', '10.30.0.1').set('Authorization', `Bearer ${admin.token}`).send(body),
    });

    it('starts from the catalog defaults', async function () {
      const r = await asAdmin(a).get('/api/admin/network-config');
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({ simulate_base_lamports: 270_000, failure_suspension_cap: 3, updated_at: null, updated_by: null });
      const quote = await b.http.get('/api/simulate');
      expect(quote.status).to.equal(402);
      expect(quotedLamports(quote.body)).to.equal(270_000);
    });

    it('refuses values out of bounds or unknown settings (422) and changes nothing', async function () {
      for (const body of [{ simulate_base_lamports: 0 }, { failure_suspension_cap: 101 }, { simulate_base_lamports: 1.5 }, {}, { fee: 1 }]) {
        const r = await asAdmin(a).patch('/api/admin/configure-network', body);
        expect(r.status, JSON.stringify(body)).to.equal(422);
      }
      const rows = (await a.deps.dataSource.query('SELECT count(*)::int AS n FROM network_config_changes')) as Array<{ n: number }>;
      expect(rows[0].n).to.equal(0);
    });

    it('applies a change made through one web process to the quotes of another within a second, audits it, and keeps it after a restart', async function () {
      const changed = await asAdmin(a).patch('/api/admin/configure-network', { simulate_base_lamports: 300_000, failure_suspension_cap: 5 });
      expect(changed.status).to.equal(200);
      expect(changed.body.network_config).to.include({ simulate_base_lamports: 300_000, failure_suspension_cap: 5, updated_by: admin.id });
      expect(changed.body.previous).to.include({ simulate_base_lamports: 270_000, failure_suspension_cap: 3 });
      const changedAt = Date.now();

      // The other process: its GET quote and its POST challenge (the charge `pay` verifies against).
      let seen = 0;
      while (Date.now() - changedAt < 1_000) {
        seen = quotedLamports((await b.http.get('/api/simulate')).body);
        if (seen === 300_000) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(seen).to.equal(300_000);
      const posted = await b.http.post('/api/simulate').send(simulateBody(WALLET));
      expect(posted.status).to.equal(402);
      expect(quotedLamports(posted.body)).to.equal(300_000);
      // The deep tier and the USDC price are not the base simulation fee.
      expect(quotedLamports((await b.http.get('/api/simulate?tier=deep')).body)).to.equal(950_000);
      // The published manifest follows the live quote.
      const manifest = (await b.http.get('/api/pricing')).body;
      expect(manifest.simulate_endpoint.price_lamports).to.equal(300_000);
      expect(manifest.simulate_endpoint.tiers).to.deep.include({ basic: { price_usdc_units: 50_000, price_lamports: 300_000 } });
      expect(manifest.deep_analysis_tier.price_lamports).to.equal(950_000);

      const audit = (await a.deps.dataSource.query('SELECT credential_id, changed_at, old_values, new_values FROM network_config_changes')) as Array<{
        credential_id: string;
        changed_at: Date;
        old_values: unknown;
        new_values: unknown;
      }>;
      expect(audit).to.have.length(1);
      expect(audit[0].credential_id).to.equal(admin.id);
      expect(audit[0].old_values).to.deep.equal({ simulate_base_lamports: 270_000, failure_suspension_cap: 3 });
      expect(audit[0].new_values).to.deep.equal({ simulate_base_lamports: 300_000, failure_suspension_cap: 5 });
      expect(changed.body.audit_id).to.be.a('string');

      // A restart: a new process reads the stored configuration at start.
      await b.close();
      b = await startTestStack('operators', { worker: false, env });
      expect(quotedLamports((await b.http.get('/api/simulate')).body)).to.equal(300_000);
      const read = await asAdmin(b).get('/api/admin/network-config');
      expect(read.body).to.include({ simulate_base_lamports: 300_000, failure_suspension_cap: 5, updated_by: admin.id });
    });
  });
});
