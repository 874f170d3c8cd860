import { expect } from 'chai';
import { Queue } from 'bullmq';
import { QUEUE } from '../../../../jobs';
import { INSTALL_REVERIFY_JOB } from '../../../../workers/maintenance/install-reverify.processor';
import { startInstallSite, pageWith, verifyInstall, type InstallSite } from '../../../helpers/install-site';
import { startTestStack, type TestStack } from '../../../helpers/stack';
import { until } from '../../../helpers/until';

describe('the free install workflow', function () {
  this.timeout(60_000);
  let site: InstallSite;
  let stack: TestStack;
  let maintenance: Queue;

  before(async function () {
    site = await startInstallSite();
    // Only the loopback site's own address and port are let through the outbound guard.
    stack = await startTestStack('catalog-installs', { env: { OUTBOUND_ALLOW_ADDRESSES: '127.0.0.1', OUTBOUND_ALLOW_PORTS: String(site.port) } });
    maintenance = new Queue(QUEUE.maintenance, { connection: { url: stack.config.redis.url }, prefix: stack.config.redis.queuePrefix });
  });
  after(async function () {
    await maintenance?.close();
    await stack?.close();
    await site?.close();
  });
  beforeEach(async function () {
    await stack.truncate();
    // Each test starts with no site fetches counted (the counters live in Redis under the suite's prefix).
    const counters = await stack.deps.redis.keys(`${stack.config.redis.queuePrefix}:catalog-site-fetches:*`);
    if (counters.length) await stack.deps.redis.del(...counters);
  });

  const workflows = async () => ((await stack.deps.dataSource.query('SELECT count(*)::int AS n FROM catalog_install_workflows')) as Array<{ n: number }>)[0].n;

  it('takes a site from start to a verified badge, step by step, with next-action at each step', async function () {
    const { http } = stack;
    const started = await http.post('/api/catalog/free-installs/start').send({ site_origin: `${site.origin}/`, offering_id: 'embedded-check' }).expect(201);
    const id = started.body.workflow_id as string;
    expect(started.body.site_origin).to.equal(site.origin);
    expect(started.body.state).to.equal('awaiting_challenge');
    expect(started.body.challenge.path).to.equal(`/.well-known/humanlike-install/${id}.txt`);
    expect(Date.parse(started.body.challenge.expires_at)).to.be.greaterThan(Date.now());
    expect(started.headers.location).to.equal(`/api/catalog/free-installs/${id}/next-action`);

    let next = await http.get(`/api/catalog/free-installs/${id}/next-action`).expect(200);
    expect(next.body).to.include({ action: 'publish_challenge', state: 'awaiting_challenge' });
    expect(next.body.request).to.deep.equal({ method: 'POST', path: `/api/catalog/free-installs/${id}/challenge-published` });
    // Not published yet: the site answers 404.
    const missing = await http.post(`/api/catalog/free-installs/${id}/challenge-published`).expect(422);
    expect(missing.body.error.code).to.equal('challenge_not_found');
    // Published, but not exactly the challenge.
    site.serve(started.body.challenge.path, `${started.body.challenge.content}x`);
    const wrong = await http.post(`/api/catalog/free-installs/${id}/challenge-published`).expect(422);
    expect(wrong.body.error.code).to.equal('challenge_mismatch');
    // The code is not given before the installation is recorded.
    await http.get(`/api/catalog/free-installs/${id}/code`).expect(409);

    site.serve(started.body.challenge.path, `${started.body.challenge.content}\n`);
    const challenged = await http.post(`/api/catalog/free-installs/${id}/challenge-published`).expect(200);
    expect(challenged.body.state).to.equal('challenge_verified');
    next = await http.get(`/api/catalog/free-installs/${id}/next-action`).expect(200);
    expect(next.body.action).to.equal('record_installation');

    const recorded = await http.post(`/api/catalog/free-installs/${id}/installation`).send({ page_url: `${site.origin}/support#reply` }).expect(201);
    expect(recorded.body).to.include({ state: 'install_recorded', page_url: `${site.origin}/support` });
    next = await http.get(`/api/catalog/free-installs/${id}/next-action`).expect(200);
    expect(next.body.action).to.equal('paste_snippet_and_verify');

    const code = await http.get(`/api/catalog/free-installs/${id}/code`).expect(200);
    const snippet = code.body.snippet as string;
    expect(snippet).to.include('/api/embed/humanlike-check-1.js');
    expect(snippet).to.include(`data-humanlike-install="${id}"`);
    expect(snippet).to.include('<humanlike-check');
    // No secret: no bundle token, no challenge.
    expect(snippet).not.to.match(/hlb_|humanlike-install-[A-Za-z0-9_-]{20}/);
    // The component the snippet loads is served here.
    const componentPath = new URL(code.body.component_url as string).pathname;
    await http.get(componentPath).expect(200);

    // Not on the page yet.
    site.serve('/support', pageWith('<p>nothing pasted</p>'), 'text/html');
    const absent = await http.post(`/api/catalog/free-installs/${id}/live-verification`).expect(422);
    expect(absent.body.error.code).to.equal('snippet_not_found');
    // Not public before it is verified, and the origin appears nowhere.
    const hidden = await http.get(`/api/catalog/verified-installs/${id}`).expect(404);
    expect(JSON.stringify(hidden.body)).not.to.include('127.0.0.1');

    site.serve('/support', pageWith(snippet), 'text/html; charset=utf-8');
    const verified = await http.post(`/api/catalog/free-installs/${id}/live-verification`).expect(200);
    expect(verified.body.state).to.equal('verified');
    expect((await http.get(`/api/catalog/free-installs/${id}/next-action`).expect(200)).body.action).to.equal('none');

    const proof = await http.get(`/api/catalog/verified-installs/${id}`).expect(200);
    expect(proof.body).to.include({ workflow_id: id, status: 'verified', site_origin: site.origin, offering_id: 'embedded-check' });
    const badge = await http.get(`/api/catalog/verified-installs/${id}?format=svg`).buffer(true).expect(200);
    expect(badge.headers['content-type']).to.match(/^image\/svg\+xml/);
    expect(String(badge.body)).to.include('>verified</text>');
    const page = await http.get(`/api/catalog/verified-installs/${id}?format=html`).expect(200);
    expect(page.headers['content-type']).to.match(/^text\/html/);
    expect(page.text).to.include(site.origin).and.include('?format=svg');
  });

  it('revokes the badge when a re-check no longer finds the snippet, and keeps one whose snippet is still there', async function () {
    const { http } = stack;
    const kept = await verifyInstall(http, site, '/kept');
    const lost = await verifyInstall(http, site, '/lost');
    // A viewer's copy of the verified badge: revalidated on every view (no freshness lifetime), with its tag.
    const before304 = await http.get(`/api/catalog/verified-installs/${lost.id}?format=svg`).buffer(true).expect(200);
    expect(before304.headers['cache-control']).to.equal('public, max-age=0');
    const tag = before304.headers.etag as string;
    expect(tag).to.match(/^"[\w-]+"$/);
    await http.get(`/api/catalog/verified-installs/${lost.id}?format=svg`).set('If-None-Match', tag).expect(304);
    site.serve('/lost', pageWith('<p>the snippet was removed</p>'), 'text/html');
    // Both were last checked long enough ago to be due.
    await stack.deps.dataSource.query(`UPDATE catalog_install_workflows SET last_checked_at = now() - interval '7 hours'`);
    const installers = async () => (await http.get('/api/catalog/attribution/summary').expect(200)).body.installers;
    const before = (await installers()).verified_installs as number;
    expect(before).to.be.at.least(2);

    const job = await maintenance.add(INSTALL_REVERIFY_JOB, {});
    await until(async () => (await job.getState()) === 'completed', 20_000, 'the re-verification job');
    expect((await maintenance.getJob(job.id as string))?.returnvalue).to.deep.equal({ checked: 2, revoked: 1, unreachable: 0 });

    const revoked = await http.get(`/api/catalog/verified-installs/${lost.id}`).expect(200);
    expect(revoked.body).to.include({ status: 'revoked', revoked_reason: 'snippet_missing' });
    expect(revoked.body).not.to.have.property('site_origin');
    // The viewer revalidating its verified copy gets the revoked badge at once, not a 304.
    const badge = await http.get(`/api/catalog/verified-installs/${lost.id}?format=svg`).set('If-None-Match', tag).buffer(true).expect(200);
    expect(String(badge.body)).to.include('>revoked</text>').and.not.include('127.0.0.1');
    expect((await http.get(`/api/catalog/free-installs/${lost.id}/next-action`).expect(200)).body.action).to.equal('start_again');

    const still = await http.get(`/api/catalog/verified-installs/${kept.id}`).expect(200);
    expect(still.body.status).to.equal('verified');
    expect(Date.parse(still.body.last_checked_at)).to.be.greaterThan(Date.now() - 60_000);
    // The public installer total counts live installs only, and names none of them.
    expect(await installers()).to.deep.equal({ verified_installs: before - 1 });
  });

  it('revokes the badge when the challenge disappears from the site', async function () {
    const { http } = stack;
    const install = await verifyInstall(http, site, '/page');
    site.remove(`/.well-known/humanlike-install/${install.id}.txt`);
    await stack.deps.dataSource.query(`UPDATE catalog_install_workflows SET last_checked_at = now() - interval '7 hours'`);
    const job = await maintenance.add(INSTALL_REVERIFY_JOB, {});
    await until(async () => (await job.getState()) === 'completed', 20_000, 'the re-verification job');
    const revoked = await http.get(`/api/catalog/verified-installs/${install.id}`).expect(200);
    expect(revoked.body).to.include({ status: 'revoked', revoked_reason: 'challenge_missing' });
  });

  describe('bad input', function () {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['no site_origin', { offering_id: 'embedded-check' }, '/site_origin'],
      ['no offering_id', { site_origin: 'https://www.example.com' }, '/offering_id'],
      ['an unknown offering', { site_origin: 'https://www.example.com', offering_id: 'nope' }, '/offering_id'],
      ['an origin with a path', { site_origin: 'https://www.example.com/page', offering_id: 'embedded-check' }, '/site_origin'],
      ['an ftp origin', { site_origin: 'ftp://www.example.com', offering_id: 'embedded-check' }, '/site_origin'],
      ['an origin with a user name', { site_origin: 'https://me@www.example.com', offering_id: 'embedded-check' }, '/site_origin'],
      ['a non-standard port', { site_origin: 'https://www.example.com:8443', offering_id: 'embedded-check' }, '/site_origin'],
      ['not a URL', { site_origin: 'www example com', offering_id: 'embedded-check' }, '/site_origin'],
      ['an extra member', { site_origin: 'https://www.example.com', offering_id: 'embedded-check', secret: 'x' }, '/secret'],
    ];
    for (const [what, body, path] of cases) {
      it(`refuses a start with ${what} (422 naming ${path}), storing nothing`, async function () {
        const res = await stack.http.post('/api/catalog/free-installs/start').send(body).expect(422);
        expect(res.body.error.details.fields.map((f: { path: string }) => f.path)).to.include(path);
        expect(await workflows()).to.equal(0);
      });
    }

    it('refuses an installation page on another origin (422 naming /page_url) and records nothing', async function () {
      const { http } = stack;
      const started = await http.post('/api/catalog/free-installs/start').send({ site_origin: site.origin, offering_id: 'embedded-check' }).expect(201);
      const id = started.body.workflow_id as string;
      site.serve(started.body.challenge.path, started.body.challenge.content);
      await http.post(`/api/catalog/free-installs/${id}/challenge-published`).expect(200);
      const res = await http.post(`/api/catalog/free-installs/${id}/installation`).send({ page_url: 'https://elsewhere.example/page' }).expect(422);
      expect(res.body.error.details.fields[0].path).to.equal('/page_url');
      expect((await http.get(`/api/catalog/free-installs/${id}/next-action`).expect(200)).body.state).to.equal('challenge_verified');
    });

    it('stops fetching a site past 10 fetches a workflow in 10 minutes and 60 a site in an hour (429 with Retry-After, no request made)', async function () {
      const { http } = stack;
      const start = async () => (await http.post('/api/catalog/free-installs/start').send({ site_origin: site.origin, offering_id: 'embedded-check' }).expect(201)).body.workflow_id as string;
      // The challenge is never published: each confirmation fetches the site and answers 422.
      const confirm = (id: string) => http.post(`/api/catalog/free-installs/${id}/challenge-published`);
      const first = await start();
      const before = site.requests();
      for (let i = 0; i < 10; i += 1) expect((await confirm(first).expect(422)).body.error.code).to.equal('challenge_not_found');
      expect(site.requests() - before).to.equal(10);
      const limited = await confirm(first).expect(429);
      expect(limited.body.error).to.deep.include({ code: 'site_fetch_rate_limited' });
      expect(limited.body.error.details).to.include({ scope: 'workflow', limit: 10, window_seconds: 600 });
      expect(Number(limited.headers['retry-after'])).to.be.within(1, 600);
      expect(site.requests() - before).to.equal(10);

      // New workflows for the same site share its hourly budget: 50 more fetches, then none.
      for (let w = 0; w < 5; w += 1) {
        const id = await start();
        for (let i = 0; i < 10; i += 1) await confirm(id).expect(422);
      }
      expect(site.requests() - before).to.equal(60);
      const siteLimited = await confirm(await start()).expect(429);
      expect(siteLimited.body.error.details).to.include({ scope: 'site', limit: 60, window_seconds: 3600 });
      expect(site.requests() - before).to.equal(60);
      // The counters name no origin: the site's is a hash.
      const keys = await stack.deps.redis.keys(`${stack.config.redis.queuePrefix}:catalog-site-fetches:*`);
      expect(keys.join(' ')).not.to.contain('127.0.0.1');
    });

    it('fetches nothing when the fetch cannot be counted (503 with Retry-After)', async function () {
      const { http } = stack;
      const id = (await http.post('/api/catalog/free-installs/start').send({ site_origin: site.origin, offering_id: 'embedded-check' }).expect(201)).body.workflow_id as string;
      // A counter Redis cannot increment (a key of another type): a real failure of the count, as when Redis refuses writes.
      await stack.deps.redis.rpush(`${stack.config.redis.queuePrefix}:catalog-site-fetches:workflow:${id}`, 'not a counter');
      const before = site.requests();
      const res = await http.post(`/api/catalog/free-installs/${id}/challenge-published`).expect(503);
      expect(res.body.error.code).to.equal('site_fetch_limit_unavailable');
      expect(res.headers['retry-after']).to.equal('5');
      expect(site.requests()).to.equal(before);
    });

    it('refuses a malformed workflow id with 422 naming it, and an unknown one with 404', async function () {
      const bad = await stack.http.get('/api/catalog/free-installs/not-a-uuid/next-action').expect(422);
      expect(bad.body.error.details.fields[0].path).to.equal('path:workflow_id');
      await stack.http.get('/api/catalog/free-installs/00000000-0000-4000-8000-000000000000/next-action').expect(404);
      await stack.http.get('/api/catalog/verified-installs/00000000-0000-4000-8000-000000000000').expect(404);
    });

    it('refuses a challenge confirmed after its expiry with 410, without fetching the site', async function () {
      const { http } = stack;
      const started = await http.post('/api/catalog/free-installs/start').send({ site_origin: site.origin, offering_id: 'embedded-check' }).expect(201);
      const id = started.body.workflow_id as string;
      site.serve(started.body.challenge.path, started.body.challenge.content);
      await stack.deps.dataSource.query(`UPDATE catalog_install_workflows SET challenge_expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
      const before = site.connections();
      const res = await http.post(`/api/catalog/free-installs/${id}/challenge-published`).expect(410);
      expect(res.body.error.code).to.equal('challenge_expired');
      expect(site.connections()).to.equal(before);
      expect((await http.get(`/api/catalog/free-installs/${id}/next-action`).expect(200)).body.action).to.equal('start_again');
    });
  });
});
