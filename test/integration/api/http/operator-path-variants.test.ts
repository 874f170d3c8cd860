import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createApp } from '../../../../api/app';
import { mintCredential } from '../../../../shared/operators/credentials';
import { startTestStack, type TestStack } from '../../../helpers/stack';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

// A raw request: supertest and fetch would normalise some of the spellings under test.
function send(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

// Every spelling of a path a router, a proxy or a browser might take for the same resource.
function spellings(path: string): string[] {
  const segments = path.split('/').slice(1);
  const capitalised = `/${segments.map((s) => s.charAt(0).toUpperCase() + s.slice(1)).join('/')}`;
  const encodedFirst = `/%${segments[0].charCodeAt(0).toString(16)}${segments[0].slice(1)}/${segments.slice(1).join('/')}`.replace(/\/$/, '');
  const encodedUpper = `/%${segments[0].charCodeAt(0).toString(16).toUpperCase()}${segments[0].slice(1)}/${segments.slice(1).join('/')}`.replace(/\/$/, '');
  return [...new Set([path, path.toUpperCase(), capitalised, `${path}/`, `/${path}`, path.replace(/\/([^/]*)$/, '//$1'), `${path.toUpperCase()}/`, encodedFirst, encodedUpper])];
}

const GUARDED: Array<{ path: string; write?: 'PATCH' | 'POST' }> = [
  { path: '/metrics' },
  { path: '/api/admin/network-config' },
  { path: '/api/admin/network-config/processes' },
  { path: '/api/admin/configure-network', write: 'PATCH' },
  { path: '/api/operator/corpus-insights' },
  { path: '/api/operator/public-results/conversion' },
  { path: '/api/outreach/status', write: 'POST' },
  { path: '/admin/queues' },
  { path: '/admin/queues/api/queues' },
];

describe('operator and admin paths under every spelling', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let server: http.Server;
  let port: number;
  let n = 0;
  // Each request from its own caller, so the refusals do not add up to the failure limit.
  const caller = () => {
    n += 1;
    return `10.77.${Math.floor(n / 250)}.${n % 250}`;
  };

  before(async function () {
    stack = await startTestStack('operator-path-variants', { worker: false, env: { TRUSTED_PROXY_HOPS: '1', CORS_ORIGIN: '*' } });
    server = http.createServer(createApp(stack.deps).callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  after(async function () {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await stack.close();
  });

  for (const { path, write } of GUARDED) {
    for (const spelled of spellings(path)) {
      for (const method of ['GET', 'HEAD', 'OPTIONS', ...(write ? [write] : [])]) {
        it(`${method} ${spelled} without a credential is 401 with no permissive CORS header`, async function () {
          const body = method === 'PATCH' ? '{"simulate_base_lamports":999999}' : method === 'POST' ? '{"lead-1":true}' : undefined;
          const r = await send(port, method, spelled, { 'X-Forwarded-For': caller(), Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' }, body);
          expect(r.status, r.body).to.equal(401);
          expect(r.headers['access-control-allow-origin']).to.equal(undefined);
          expect(r.body).not.to.match(/simulate_base_lamports|process_cpu|clean_samples|paid_calls|pid/);
        });
      }
    }
  }

  it('locks a caller out of every spelling once it has failed too often', async function () {
    const ip = caller();
    const limit = stack.config.operators.authFailureLimit;
    for (let i = 0; i < limit; i++) {
      const r = await send(port, 'GET', '/metrics', { 'X-Forwarded-For': ip, Authorization: `Bearer hlo_${'D'.repeat(43)}` });
      expect(r.status).to.equal(401);
    }
    for (const spelled of spellings('/metrics')) {
      const r = await send(port, 'GET', spelled, { 'X-Forwarded-For': ip });
      expect([spelled, r.status]).to.deep.equal([spelled, 429]);
    }
  });

  it('serves operator data only at the contract spelling, and without a permissive CORS header', async function () {
    const { token } = await mintCredential(stack.deps.dataSource, 'operator', 3_600);
    const auth = { Authorization: `Bearer ${token}`, Origin: 'https://evil.example' };
    const ok = await send(port, 'GET', '/metrics', { 'X-Forwarded-For': caller(), ...auth });
    expect(ok.status).to.equal(200);
    expect(ok.headers['access-control-allow-origin']).to.equal(undefined);
    for (const spelled of ['/METRICS', '/Metrics', '/api/OUTREACH/status', '/api/operator/Corpus-Insights']) {
      const r = await send(port, 'GET', spelled, { 'X-Forwarded-For': caller(), ...auth });
      expect([spelled, r.status]).to.deep.equal([spelled, 404]);
    }
  });

  it('answers public paths only at their contract spelling', async function () {
    const ok = await send(port, 'GET', '/api/profiles', { 'X-Forwarded-For': caller() });
    expect(ok.status).to.equal(200);
    for (const spelled of ['/API/profiles', '/api/Profiles', '/api/profiles/']) {
      const r = await send(port, 'GET', spelled, { 'X-Forwarded-For': caller() });
      expect([spelled, r.status]).to.deep.equal([spelled, 404]);
    }
  });

  it('keeps the dashboard from adding or editing jobs under any spelling of the action', async function () {
    const { token } = await mintCredential(stack.deps.dataSource, 'admin', 3_600);
    const queue = stack.deps.scoringQueue;
    const before = await queue.getJobCounts();
    const job = { name: 'score-text', data: { input: { text: 'x' } }, options: {} };
    for (const action of ['add', 'ADD', 'Add', 'add/', '%61dd', '/add']) {
      const r = await send(port, 'POST', `/admin/queues/api/queues/scoring/${action}`, { 'X-Forwarded-For': caller(), Authorization: `Bearer ${token}` }, JSON.stringify(job));
      expect([action, r.status]).to.deep.equal([action, 403]);
    }
    for (const spelled of ['/admin/queues/api/queues/scoring/some-job/UPDATE-DATA', '/admin/queues/api/queues/scoring/some-job/Update-Data']) {
      const r = await send(port, 'PATCH', spelled, { 'X-Forwarded-For': caller(), Authorization: `Bearer ${token}` }, JSON.stringify({ jobData: {} }));
      expect([spelled, r.status]).to.deep.equal([spelled, 403]);
    }
    expect(await queue.getJobCounts()).to.deep.equal(before);
  });
});
