import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { startTestStack, type TestStack } from '../../../helpers/stack';

const SLUGS = [
  'check-replies-before-sending',
  'embed-check-in-my-app',
  'stress-test-personalities',
  'agent-check-over-mcp',
  'rewrite-robotic-replies',
  'check-script-adherence',
  'compare-two-bots',
  'track-score-progress',
  'practice-conversations',
  'export-training-data',
];

// query -> ranked job slugs, through the API (the scores are pinned by the unit golden test).
const GOLDEN: Array<[string, string[]]> = [
  ['support bot replies', ['check-replies-before-sending']],
  ['stress-test my agent across personalities', ['stress-test-personalities', 'agent-check-over-mcp']],
  ['add a human-likeness check to my agent over MCP', ['agent-check-over-mcp', 'check-replies-before-sending', 'track-score-progress']],
  ['embed widget', ['embed-check-in-my-app']],
  ['training', ['practice-conversations', 'export-training-data']],
  ['zzz', []],
];

describe('catalog matching (real PostgreSQL)', function () {
  this.timeout(30_000);
  let stack: TestStack;
  const logs = new PassThrough();
  let logText = '';
  logs.on('data', (chunk: Buffer) => {
    logText += chunk.toString('utf8');
  });

  before(async function () {
    stack = await startTestStack('catalog-match', { worker: false, logs, env: { LOG_LEVEL: 'debug', PUBLIC_BASE_URL: 'https://humanlike.test' } });
  });
  after(async function () {
    await stack?.close();
  });
  beforeEach(async function () {
    await stack.truncate();
  });

  const query = <T>(sql: string, params: unknown[] = []) => stack.deps.dataSource.query(sql, params) as Promise<T[]>;
  const handoffs = async () => (await query<{ n: number }>(`SELECT count(*)::int AS n FROM catalog_handoffs`))[0].n;
  const fieldsOf = (body: { error: { details: { fields: Array<{ path: string }> } } }) => body.error.details.fields.map((f) => f.path);

  it('lists exactly the ten jobs with their offerings and match addresses', async function () {
    const res = await stack.http.get('/api/catalog/jobs').expect(200);
    expect(res.body.matcher_version).to.equal('catalog-keywords-1');
    expect(res.body.jobs.map((j: { job_slug: string }) => j.job_slug)).to.deep.equal(SLUGS);
    expect(res.body.jobs[1]).to.include({ job_slug: 'embed-check-in-my-app' });
    expect(res.body.jobs[1].offering_ids).to.deep.equal(['embedded-check', 'bundle']);
    expect(res.body.jobs[1].match_url).to.match(/^https:\/\/humanlike\.test\/api\/catalog\/match\/embed-check-in-my-app$/);
    for (const job of res.body.jobs) expect(job.description, job.job_slug).to.be.a('string').and.not.equal('');
  });

  it('ranks the same queries the same way every time', async function () {
    for (const [q, slugs] of GOLDEN) {
      const a = await stack.http.get('/api/catalog/recommend').query({ query: q }).expect(200);
      const b = await stack.http.get('/api/catalog/recommend').query({ query: q }).expect(200);
      expect(a.body.matches.map((m: { job_slug: string }) => m.job_slug), q).to.deep.equal(slugs);
      expect(b.body, q).to.deep.equal(a.body);
      expect(a.body.matches.map((m: { rank: number }) => m.rank), q).to.deep.equal(slugs.map((_, i) => i + 1));
    }
    const one = (await stack.http.get('/api/catalog/recommend?query=embed').expect(200)).body;
    expect(one.query_length).to.equal(5);
    expect(one.matches[0].offerings.map((o: { id: string; install_kind: string }) => [o.id, o.install_kind])).to.deep.equal([
      ['embedded-check', 'snippet'],
      ['bundle', 'http_api'],
    ]);
    expect(await handoffs()).to.equal(0);
  });

  it('refuses an empty, missing, repeated or 161-character query with 422 naming query, and accepts 160', async function () {
    const cases: Array<[string, string]> = [
      ['missing', '/api/catalog/recommend'],
      ['empty', '/api/catalog/recommend?query='],
      ['161', `/api/catalog/recommend?query=${'a'.repeat(161)}`],
      ['repeated', '/api/catalog/recommend?query=a&query=b'],
    ];
    for (const [what, path] of cases) {
      const res = await stack.http.get(path);
      expect(res.status, what).to.equal(422);
      expect(res.body.error.code, what).to.equal('validation_failed');
      expect(fieldsOf(res.body), what).to.deep.equal(['/query']);
    }
    const max = await stack.http.get('/api/catalog/recommend').query({ query: `reply ${'x'.repeat(154)}` }).expect(200);
    expect(max.body.query_length).to.equal(160);
    expect(max.body.matches.map((m: { job_slug: string }) => m.job_slug)).to.deep.equal(['check-replies-before-sending']);
    // 160 characters outside the BMP are 160 characters, not 320 UTF-16 units.
    expect((await stack.http.get('/api/catalog/recommend').query({ query: '🙂'.repeat(160) }).expect(200)).body.query_length).to.equal(160);
  });

  it('keeps the query text out of the logs and every table; logs only its length and a keyed hash', async function () {
    const marker = `zanzibar${randomBytes(6).toString('hex')}`;
    logText = '';
    await stack.http.get('/api/catalog/recommend').query({ query: `support ${marker}` }).expect(200);
    await stack.http.get('/api/catalog/recommend').query({ query: `${marker}${'y'.repeat(160)}` }).expect(422);
    await stack.http.post('/api/catalog/match').send({ job_slug: 'check-replies-before-sending' }).expect(201);
    await stack.http.post('/api/catalog/match').send({ job_slug: 'check-replies-before-sending', query: marker }).expect(422);

    const lines = logText.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const recommend = lines.filter((l) => l.msg === 'catalog recommend');
    expect(recommend).to.have.length(1);
    expect(recommend[0]).to.include({ query_length: 8 + marker.length, matches: 1 });
    expect(recommend[0].query_hash).to.match(/^[0-9a-f]{16}$/);
    expect(lines.filter((l) => l.msg === 'request finished').map((l) => l.path)).to.include('/api/catalog/recommend');
    expect(logText).to.not.include(marker);

    const tables = await query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`);
    expect(tables.length).to.be.greaterThan(10);
    for (const { table_name } of tables) {
      const hits = await query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table_name}" t WHERE t::text LIKE $1`, [`%${marker}%`]);
      expect(hits[0].n, table_name).to.equal(0);
    }
    expect(await handoffs()).to.equal(1);
  });

  it('answers the stable match of one job, 404 for an unknown slug and 422 for a malformed one', async function () {
    const a = await stack.http.get('/api/catalog/match/agent-check-over-mcp').expect(200);
    const b = await stack.http.get('/api/catalog/match/agent-check-over-mcp').expect(200);
    expect(b.body).to.deep.equal(a.body);
    expect(a.body).to.include({ job_slug: 'agent-check-over-mcp', primary_offering_id: 'mcp', matcher_version: 'catalog-keywords-1' });
    expect(a.body.offerings).to.have.length(1);
    expect(a.body.offerings[0]).to.include({ id: 'mcp', kind: 'mcp', install_kind: 'mcp_config' });
    expect(a.body.offerings[0].url).to.match(/\/api\/mcp$/);
    const unknown = await stack.http.get('/api/catalog/match/no-such-job').expect(404);
    expect(unknown.body.error.code).to.equal('job_not_found');
    for (const bad of ['Bad_Slug', '-x', 'a--b', `${'a'.repeat(65)}`]) {
      const res = await stack.http.get(`/api/catalog/match/${bad}`);
      expect(res.status, bad).to.equal(422);
      expect(fieldsOf(res.body), bad).to.deep.equal(['/job_slug']);
    }
  });

  it('records a selection as a handoff with a window, and refuses bad input with 422 naming the field, storing nothing', async function () {
    const res = await stack.http.post('/api/catalog/match').send({ job_slug: 'practice-conversations', offering_id: 'roleplay' }).expect(201);
    expect(res.body).to.include({ job_slug: 'practice-conversations', offering_id: 'roleplay', handoff_url: null });
    expect(res.body.handoff_id).to.match(/^[0-9a-f-]{36}$/);
    expect(res.body.offering).to.include({ id: 'roleplay', kind: 'paid_product' });
    expect(Date.parse(res.body.attribution_expires_at) - Date.parse(res.body.created_at)).to.equal(30 * 86_400_000);
    const defaulted = await stack.http.post('/api/catalog/match').send({ job_slug: 'practice-conversations' }).expect(201);
    expect(defaulted.body.offering_id).to.equal('coaching');
    expect(defaulted.body.handoff_id).to.not.equal(res.body.handoff_id);
    const rows = await query<{ job_slug: string; offering_id: string; partner_id: string | null }>(`SELECT job_slug, offering_id, partner_id FROM catalog_handoffs ORDER BY created_at`);
    expect(rows).to.deep.equal([
      { job_slug: 'practice-conversations', offering_id: 'roleplay', partner_id: null },
      { job_slug: 'practice-conversations', offering_id: 'coaching', partner_id: null },
    ]);

    const cases: Array<[unknown, string]> = [
      [{}, '/job_slug'],
      [{ job_slug: 'no-such-job' }, '/job_slug'],
      [{ job_slug: 42 }, '/job_slug'],
      [{ job_slug: 'practice-conversations', offering_id: 'mcp' }, '/offering_id'],
      [{ job_slug: 'practice-conversations', offering_id: '' }, '/offering_id'],
      [{ job_slug: 'practice-conversations', extra: 1 }, '/extra'],
    ];
    for (const [body, field] of cases) {
      const bad = await stack.http.post('/api/catalog/match').send(body as object);
      expect(bad.status, JSON.stringify(body)).to.equal(422);
      expect(fieldsOf(bad.body), JSON.stringify(body)).to.include(field);
    }
    expect(await handoffs()).to.equal(2);
    const summary = await stack.http.get('/api/catalog/attribution/summary').expect(200);
    expect(summary.body.handoffs.total).to.equal(2);
    expect(summary.body.handoffs.by_job['practice-conversations']).to.equal(2);
    expect(summary.body.handoffs.by_job['compare-two-bots']).to.equal(0);
    expect(summary.body.installers).to.deep.equal({ verified_installs: 0 });
    expect(summary.body).to.not.have.property('vendors');
  });

  it('limits handoffs per client and hour, storing nothing beyond the limit', async function () {
    // This suite's own prefix: earlier tests' handoffs are not counted against this one.
    const keys = await stack.deps.redis.keys(`${stack.config.redis.queuePrefix}:catalog-handoffs:*`);
    if (keys.length > 0) await stack.deps.redis.del(...keys);
    for (let i = 0; i < 120; i++) await stack.http.post('/api/catalog/match').send({ job_slug: 'compare-two-bots' }).expect(201);
    const refused = await stack.http.post('/api/catalog/match').send({ job_slug: 'compare-two-bots' });
    expect(refused.status).to.equal(429);
    expect(refused.body.error.code).to.equal('handoff_rate_limited');
    expect(Number(refused.headers['retry-after'])).to.be.within(1, 3600);
    expect(await handoffs()).to.equal(120);
    // Reads are not limited.
    await stack.http.get('/api/catalog/match/compare-two-bots').expect(200);
  });

  it('serves the developer handoff document at the root and under /api, with validators', async function () {
    const root = await stack.http.get('/.well-known/catalog.json').expect(200);
    const api = await stack.http.get('/api/.well-known/catalog.json').expect(200);
    expect(api.text).to.equal(root.text);
    expect(root.headers['content-type']).to.match(/^application\/json/);
    const doc = JSON.parse(root.text);
    const embedded = doc.offerings.find((o: { id: string }) => o.id === 'embedded-check');
    expect(embedded).to.include({ kind: 'embed_component', install_kind: 'snippet' });
    expect(doc.offerings.map((o: { id: string }) => o.id)).to.include.members(['simulate', 'mcp', 'starter-kit', 'bundle']);
    expect(doc.jobs.map((j: { job_slug: string }) => j.job_slug)).to.deep.equal(SLUGS);
    expect(doc.endpoints.recommend.query).to.include({ min_chars: 1, max_chars: 160 });
    expect(doc.conversions).to.include({ clock_skew_seconds: 300, attribution_window_days: 30 });
    await stack.http.get('/.well-known/catalog.json').set('If-None-Match', root.headers.etag as string).expect(304);
  });

  it('documents every catalog path in the OpenAPI document', async function () {
    const doc = (await stack.http.get('/api/openapi.json').expect(200)).body;
    for (const [path, method] of [
      ['/api/catalog/jobs', 'get'],
      ['/api/catalog/recommend', 'get'],
      ['/api/catalog/match', 'post'],
      ['/api/catalog/match/{job_slug}', 'get'],
      ['/api/catalog/conversions', 'post'],
      ['/api/catalog/attribution/summary', 'get'],
      ['/.well-known/catalog.json', 'get'],
      ['/api/.well-known/catalog.json', 'get'],
      ['/api/operator/catalog/partners', 'post'],
    ]) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).to.be.an('object');
    }
    const q = doc.paths['/api/catalog/recommend'].get.parameters.find((p: { name: string }) => p.name === 'query');
    expect(q).to.include({ required: true });
    expect(q.schema).to.include({ minLength: 1, maxLength: 160 });
  });
});
