import { expect } from 'chai';
import supertest from 'supertest';
import { createApp } from '../../../../api/app';
import { createOutboundGuard, DEFAULT_OUTBOUND_POLICY } from '../../../../shared/http/outbound-guard';
import { startInstallSite, type InstallSite } from '../../../helpers/install-site';
import { startTestStack, type Http, type TestStack } from '../../../helpers/stack';
import { controlledDns } from '../../../helpers/controlled-dns';


describe('the free install workflow refuses sites it must not fetch', function () {
  this.timeout(60_000);
  let site: InstallSite;
  let stack: TestStack;
  let http: Http;
  const dns = controlledDns({
    'site.test': '127.0.0.1',
    'metadata.test': '169.254.169.254',
    'private.test': '10.0.0.7',
    'home.test': '192.168.1.20',
    'cgnat.test': '100.64.0.1',
    'loopback.test': '127.0.0.2',
    'unspecified.test': '0.0.0.0',
    'multicast.test': '224.0.0.1',
    'v6-loopback.test': '::1',
    'unique-local.test': 'fd00::1',
    'link-local-v6.test': 'fe80::1',
    'mapped.test': '::ffff:127.0.0.2',
    'mapped-metadata.test': '::ffff:169.254.169.254',
  });

  before(async function () {
    site = await startInstallSite();
    stack = await startTestStack('catalog-install-ssrf', { worker: false, env: { OUTBOUND_ALLOW_ADDRESSES: '127.0.0.1', OUTBOUND_ALLOW_PORTS: String(site.port) } });
    // The same API, its guard resolving names through the controlled answers.
    const outbound = createOutboundGuard({ ...DEFAULT_OUTBOUND_POLICY, ...stack.config.outbound, lookup: dns });
    http = supertest(createApp({ ...stack.deps, outbound }).callback());
  });
  after(async function () {
    await stack?.close();
    await site?.close();
  });
  beforeEach(async function () {
    await stack.truncate();
  });

  async function confirmChallenge(origin: string) {
    const started = await http.post('/api/catalog/free-installs/start').send({ site_origin: origin, offering_id: 'embedded-check' }).expect(201);
    const id = started.body.workflow_id as string;
    return { id, res: await http.post(`/api/catalog/free-installs/${id}/challenge-published`) };
  }

  it('fetches an allowed site by a name (the controlled answer), so the refusals below are about the address', async function () {
    const origin = `http://site.test:${site.port}`;
    const started = await http.post('/api/catalog/free-installs/start').send({ site_origin: origin, offering_id: 'embedded-check' }).expect(201);
    site.serve(started.body.challenge.path, started.body.challenge.content);
    await http.post(`/api/catalog/free-installs/${started.body.workflow_id}/challenge-published`).expect(200);
    expect(dns.asked).to.include('site.test');
  });

  const names = ['metadata.test', 'private.test', 'home.test', 'cgnat.test', 'loopback.test', 'unspecified.test', 'multicast.test', 'v6-loopback.test', 'unique-local.test', 'link-local-v6.test', 'mapped.test', 'mapped-metadata.test'];
  for (const name of names) {
    it(`refuses a site whose name resolves to a forbidden address (${name}) with 422 and the reason, before connecting`, async function () {
      const before = site.connections();
      const { id, res } = await confirmChallenge(`http://${name}:${site.port}`);
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('site_address_refused');
      expect(res.body.error.details).to.include({ reason: 'address', field: 'site_origin' });
      expect(site.connections()).to.equal(before);
      // The workflow did not move.
      expect((await http.get(`/api/catalog/free-installs/${id}/next-action`).expect(200)).body.state).to.equal('awaiting_challenge');
    });
  }

  // Literal addresses in other spellings: decimal, hex, octal and short IPv4, IPv6 forms.
  const literals = ['http://169.254.169.254', 'http://2852039166', 'http://0xa9fea9fe', 'http://0251.0376.0251.0376', 'http://127.2', 'http://[::1]', 'http://[::ffff:a9fe:a9fe]', 'http://[fd00::1]', 'http://0.0.0.0'];
  for (const origin of literals) {
    it(`refuses the literal site ${origin} with 422 and the reason`, async function () {
      const { res } = await confirmChallenge(origin);
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('site_address_refused');
      expect(res.body.error.details.reason).to.equal('address');
    });
  }

  it('refuses a redirect from the allowed site to a forbidden address', async function () {
    const origin = `http://site.test:${site.port}`;
    const started = await http.post('/api/catalog/free-installs/start').send({ site_origin: origin, offering_id: 'embedded-check' }).expect(201);
    site.redirect(started.body.challenge.path, `http://metadata.test:${site.port}/latest/meta-data`);
    const res = await http.post(`/api/catalog/free-installs/${started.body.workflow_id}/challenge-published`).expect(422);
    expect(res.body.error.code).to.equal('site_address_refused');
    expect(res.body.error.details.reason).to.equal('address');
  });

  it('refuses a site on a port that is not allowed at the start (422 naming site_origin), storing nothing', async function () {
    const res = await http.post('/api/catalog/free-installs/start').send({ site_origin: 'http://site.test:6379', offering_id: 'embedded-check' }).expect(422);
    expect(res.body.error.details.fields[0]).to.include({ path: '/site_origin', rule: 'port' });
    const rows = (await stack.deps.dataSource.query('SELECT count(*)::int AS n FROM catalog_install_workflows')) as Array<{ n: number }>;
    expect(rows[0].n).to.equal(0);
  });
});
