import { expect } from 'chai';
import supertest from 'supertest';
import { createApp } from '../../../api/app';
import { createApiRouter } from '../../../api/routes';
import { scoreRequestSchema } from '../../../api/free-score/free-score.schema';
import { PROFILES } from '../../../shared/profiles';
import { AGENT_PLANS, QUOTE_TTL_SECONDS } from '../../../shared/catalog/agent-plans';
import { fakeDeps, type FakeDeps } from '../../helpers/fake-deps';

const TREASURY = `0x${'b'.repeat(40)}`;

describe('createApp (no network)', function () {
  let deps: FakeDeps;
  let http: ReturnType<typeof supertest>;

  beforeEach(function () {
    deps = fakeDeps({ TREASURY_EVM_ADDRESS: TREASURY });
    http = supertest(createApp(deps).callback());
  });

  describe('errors', function () {
    it('answers 404 with the error body for an unknown path', async function () {
      const res = await http.get('/api/nope').expect(404);
      expect(res.body).to.deep.equal({ error: { code: 'not_found', message: 'Nothing is served at this path.', details: null } });
    });

    it('answers 405 with an Allow header for a known path and another method', async function () {
      const res = await http.get('/api/train').expect(405);
      expect(res.body.error.code).to.equal('method_not_allowed');
      expect(res.headers.allow).to.contain('POST');
    });

    it('answers POST /api/train with 410 pointing to /api/simulate', async function () {
      const res = await http.post('/api/train').send({ anything: true }).expect(410);
      expect(res.body.error.code).to.equal('gone');
      expect(res.body.error.details.replacement).to.deep.equal({ method: 'POST', path: '/api/simulate' });
    });

    it('hides the message of a server fault and gives the request id instead', async function () {
      deps = fakeDeps({}, async () => {
        throw new Error('boom with a secret inside');
      });
      http = supertest(createApp(deps).callback());
      const res = await http.get('/api/health-capacity').set('X-Request-Id', 'fault-1').expect(500);
      expect(res.body.error.code).to.equal('internal_error');
      expect(JSON.stringify(res.body)).not.to.contain('secret');
      expect(res.body.error.details).to.deep.equal({ request_id: 'fault-1' });
      expect(deps.logLines.some((l) => l.includes('"level":50') && l.includes('fault-1'))).to.equal(true);
    });
  });

  describe('POST /api/score validation (nothing reaches the database)', function () {
    const post = (body: unknown) => http.post('/api/score').set('Content-Type', 'application/json').send(JSON.stringify(body));
    const paths = (res: supertest.Response) => res.body.error.details.fields.map((f: { path: string }) => f.path).sort();

    it('lists every failing field for wrong types', async function () {
      const res = await post({ data_consent: true, proposed_text: 5, response_delay_seconds: '10', target_profile: 'nobody', incoming_message: [] });
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('validation_failed');
      expect(paths(res)).to.deep.equal(['/incoming_message', '/proposed_text', '/response_delay_seconds', '/target_profile']);
    });

    it('lists missing fields by their JSON path', async function () {
      const res = await post({});
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('data_consent_required');
      expect(res.body.error.details.fields).to.deep.include({ path: '/proposed_text', rule: 'required', message: 'is required' });
      expect(res.body.error.details.fields).to.deep.include({ path: '/data_consent', rule: 'required', message: 'is required' });
    });

    it('refuses a negative delay, blank text and unknown fields', async function () {
      const res = await post({ data_consent: true, proposed_text: '   ', response_delay_seconds: -1, wallet_address: '0x1' });
      expect(res.status).to.equal(422);
      expect(paths(res)).to.deep.equal(['/proposed_text', '/response_delay_seconds', '/wallet_address']);
    });

    it('refuses text over 20000 characters', async function () {
      const res = await post({ data_consent: true, proposed_text: 'x'.repeat(20_001) });
      expect(res.status).to.equal(422);
      expect(res.body.error.details.fields).to.deep.equal([{ path: '/proposed_text', rule: 'maxLength', message: 'must NOT have more than 20000 characters' }]);
    });

    it('answers a JSON array with a 422 on the whole body', async function () {
      const res = await post([1, 2]);
      expect(res.status).to.equal(422);
      expect(res.body.error.details.fields[0]).to.include({ path: '', rule: 'type' });
    });

    it('answers invalid JSON with a machine-readable 422', async function () {
      const res = await http.post('/api/score').set('Content-Type', 'application/json').send('{"data_consent": tru');
      expect(res.status).to.equal(422);
      expect(res.body.error).to.deep.equal({
        code: 'invalid_json',
        message: 'The request body is not valid JSON (a JSON object is expected).',
        details: { fields: [{ path: '', rule: 'json', message: 'body is not a valid JSON object' }] },
      });
    });

    it('answers a non-JSON content type with 415', async function () {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
        const res = await http.post('/api/score').set('Content-Type', type).send('data_consent=true');
        expect(res.status).to.equal(415);
        expect(res.body.error.code).to.equal('unsupported_media_type');
      }
    });

    it('answers an undecodable body with 400 invalid_body and an unknown encoding with 415', async function () {
      const gzip = await http
        .post('/api/score')
        .set({ 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' })
        .send(Buffer.from('this is not gzip'));
      expect(gzip.status).to.equal(400);
      expect(gzip.body.error.code).to.equal('invalid_body');
      const unknown = await http.post('/api/score').set({ 'Content-Type': 'application/json', 'Content-Encoding': 'x-unknown' }).send('{}');
      expect(unknown.status).to.equal(415);
    });

    it('refuses __proto__ keys as invalid JSON', async function () {
      const res = await http.post('/api/score').set('Content-Type', 'application/json').send('{"__proto__": {"polluted": 1}, "data_consent": true}');
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('invalid_json');
    });

    it('answers a body over the size limit with 413', async function () {
      const res = await post({ data_consent: true, proposed_text: 'x'.repeat(70_000) });
      expect(res.status).to.equal(413);
      expect(res.body.error).to.include({ code: 'payload_too_large' });
    });

    it('never logs the submitted text or the client address', async function () {
      await http
        .post('/api/score')
        .set('Content-Type', 'application/json')
        .set('X-Forwarded-For', '198.51.100.23')
        .send('{"proposed_text": "my private reply", bad json');
      const logs = deps.logLines.join('\n');
      expect(logs).to.contain('request finished');
      expect(logs).not.to.contain('my private reply');
      expect(logs).not.to.contain('198.51.100.23');
    });
  });

  describe('GET /api/health-capacity', function () {
    it('defaults iterations to 2000', async function () {
      await http.get('/api/health-capacity').expect(200);
      expect(deps.capacityCalls).to.deep.equal([2000]);
    });

    it('accepts 1 and 100000', async function () {
      await http.get('/api/health-capacity?iterations=1').expect(200);
      await http.get('/api/health-capacity?iterations=100000').expect(200);
      expect(deps.capacityCalls).to.deep.equal([1, 100000]);
    });

    for (const bad of ['0', '100001', 'abc', '2.5']) {
      it(`answers 422 for iterations=${bad}`, async function () {
        const res = await http.get(`/api/health-capacity?iterations=${bad}`).expect(422);
        expect(res.body.error.details.fields[0].path).to.equal('/iterations');
        expect(deps.capacityCalls).to.deep.equal([]);
      });
    }
  });

  describe('GET /api/profiles', function () {
    it('lists the 28 profiles with ids, names, descriptions and targets', async function () {
      const res = await http.get('/api/profiles').expect(200);
      expect(res.body.count).to.equal(28);
      expect(res.body.profiles).to.have.length(28);
      expect(res.body.profiles.map((p: { id: string }) => p.id)).to.deep.equal(PROFILES.map((p) => p.id));
      for (const p of res.body.profiles) {
        expect(p).to.have.all.keys('id', 'name', 'description', 'targets');
        expect(p.targets).to.have.all.keys('empathy', 'formality', 'directness', 'hesitation');
      }
    });
  });

  describe('GET /api/pricing', function () {
    const MEMBERS = [
      'score_endpoint', 'train_endpoint', 'loyalty_program', 'deep_analysis_tier', 'simulate_endpoint',
      'calibration_sharing_program', 'duel_endpoint', 'progress_report_endpoint', 'stress_test_endpoint',
      'training_dataset_endpoint', 'script_check_endpoint', 'roleplay_endpoint', 'coaching_endpoint',
      'prepaid_bundle', 'embedded_check_endpoint', 'card_credit_packs', 'referral_program',
      'payment', 'payment_usdc', 'terms', 'currency_note',
    ];

    it('has every member the interface description names', async function () {
      const res = await http.get('/api/pricing').expect(200);
      expect(res.body).to.include.all.keys(...MEMBERS);
    });

    it('carries the published prices and the configured treasury', async function () {
      const { body } = await http.get('/api/pricing').expect(200);
      const usdc = (m: { price_usdc_units: number; price_lamports: number }) => [m.price_usdc_units, m.price_lamports];
      expect(usdc(body.simulate_endpoint)).to.deep.equal([50000, 270000]);
      expect(usdc(body.deep_analysis_tier)).to.deep.equal([180000, 950000]);
      expect(usdc(body.duel_endpoint)).to.deep.equal([75000, 400000]);
      for (const m of ['stress_test_endpoint', 'progress_report_endpoint', 'training_dataset_endpoint', 'script_check_endpoint']) {
        expect(usdc(body[m]), m).to.deep.equal([180000, 950000]);
      }
      expect(usdc(body.roleplay_endpoint)).to.deep.equal([400000, 2160000]);
      expect(usdc(body.coaching_endpoint)).to.deep.equal([540000, 2850000]);
      expect(usdc(body.prepaid_bundle)).to.deep.equal([42500000, 229500000]);
      expect(body.prepaid_bundle).to.include({ credits: 1000, discount_pct: 15, list_lamports: 270000000, lamports_per_credit: 229500 });
      expect(body.card_credit_packs.packs).to.deep.equal([
        { id: 'starter', price_usd: '5.00', credits: 105, discount_pct: 5 },
        { id: 'builder', price_usd: '20.00', credits: 444, discount_pct: 10 },
        { id: 'fleet', price_usd: '50.00', credits: 1176, discount_pct: 15 },
      ]);
      expect(body.loyalty_program).to.include({ threshold_sessions: 10, discount_pct: 10, applies_to_simulate: false });
      expect(body.calibration_sharing_program).to.include({ discount_pct: 0, default: false, storage_threshold_score_pct: 85 });
      expect(body.payment_usdc).to.include({ network: 'eip155:8453', pay_to: TREASURY, decimals: 6 });
      expect(body.train_endpoint).to.include({ http_status: 410, replacement: '/api/simulate' });
      expect(body.score_endpoint).to.include({ free_scores_per_caller: 3, price_usdc_units: 0 });
      expect(usdc(body.rewrite_endpoint)).to.deep.equal([180000, 950000]);
    });

    it('gives a quote path only for products this server answers, and marks the rest unavailable', async function () {
      const { body } = await http.get('/api/pricing').expect(200);
      expect(body.simulate_endpoint).to.include({ available: true });
      expect(body.simulate_endpoint.quote).to.deep.equal({ method: 'GET', path: '/api/simulate' });
      expect(body.prepaid_bundle).to.include({ available: true });
      expect(body.prepaid_bundle.quote).to.deep.equal({ method: 'GET', path: '/api/bundle' });
      // Every quote path the manifest gives must answer the 402 quote.
      const quotes = Object.values(body as Record<string, { quote?: { path: string } }>).filter((m) => m?.quote);
      expect(quotes.length).to.be.at.least(3);
      for (const m of quotes) expect((await http.get(m.quote!.path)).status, m.quote!.path).to.equal(402);
      expect(body.rewrite_endpoint).to.include({ available: true });
      expect(body.rewrite_endpoint.quote).to.deep.equal({ method: 'GET', path: '/api/rewrite' });
      for (const m of ['progress_report_endpoint', 'training_dataset_endpoint', 'roleplay_endpoint', 'coaching_endpoint']) {
        expect(body[m], m).to.include({ available: true });
        expect(body[m].quote, m).to.deep.equal({ method: 'GET', path: body[m].path });
      }
      expect(body.duel_endpoint).to.include({ available: true });
      expect(body.duel_endpoint.quote).to.deep.equal({ method: 'GET', path: '/api/duel' });
      expect(body.roleplay_endpoint.join).to.include({ path: '/api/roleplay/join', available: true, price_usdc_units: 0 });
      expect(body.card_credit_packs.catalog).to.include({ path: '/api/card/packs', available: true });
      expect(body.card_credit_packs.checkout).to.include({ path: '/api/card/checkout', available: true });
      expect(body.embedded_check_endpoint).to.include({ path: '/api/embed/check', available: true });
      // A buyer finds the catalog's agent plans here too: each plan's price and the quote-then-pay steps.
      const plans = body.catalog_agent_plans;
      expect(plans.plans).to.deep.equal(AGENT_PLANS.map((p) => ({ id: p.id, name: p.name, credits: p.credits, period_days: p.periodDays, price_usdc_units: p.price.usdcUnits, price_lamports: p.price.lamports })));
      expect(plans.quotes).to.include({ method: 'POST', path: '/api/catalog/agent/quotes', available: true });
      expect(plans.payment).to.include({ method: 'POST', path: '/api/catalog/agent/payments/{quote_id}', available: true, payment: 'x402' });
      expect(plans.quote_ttl_seconds).to.equal(QUOTE_TTL_SECONDS);
    });

    it('names only endpoints this server answers: every path it writes by hand is checked against the routes', async function () {
      const { body } = await http.get('/api/pricing').expect(200);
      const references: Array<{ at: string; available: unknown }> = [];
      const walk = (value: unknown, at: string): void => {
        if (!value || typeof value !== 'object') return;
        const ref = value as { method?: unknown; path?: unknown; available?: unknown; status?: unknown };
        if (typeof ref.method === 'string' && typeof ref.path === 'string' && ref.status !== 'retired') references.push({ at, available: ref.available });
        // A quote member is checked above: it must answer the 402 quote.
        for (const [key, child] of Object.entries(value)) if (key !== 'quote') walk(child, `${at}/${key}`);
      };
      walk(body, '');
      expect(references.length).to.be.at.least(15);
      for (const ref of references) expect(ref.available, ref.at).to.equal(true);
    });
  });

  describe('CORS', function () {
    it('exposes the payment headers to browsers', async function () {
      const res = await http.get('/api/profiles').set('Origin', 'https://agent.example').expect(200);
      const exposed = String(res.headers['access-control-expose-headers']).split(',');
      expect(exposed).to.include.members(['PAYMENT-REQUIRED', 'PAYMENT-RESPONSE', 'X-PAYMENT-RESPONSE']);
    });

    it('answers the preflight of a paid call', async function () {
      const res = await http
        .options('/api/score')
        .set('Origin', 'https://agent.example')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'content-type,payment-signature');
      expect(res.status).to.equal(204);
      expect(String(res.headers['access-control-allow-headers'])).to.contain('PAYMENT-SIGNATURE');
    });
  });

  describe('request ids', function () {
    it('echoes a well-formed X-Request-Id and replaces a malformed one', async function () {
      const given = await http.get('/api/profiles').set('X-Request-Id', 'abc-123');
      expect(given.headers['x-request-id']).to.equal('abc-123');
      const replaced = await http.get('/api/profiles').set('X-Request-Id', 'not ok; drop table');
      expect(replaced.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    });
  });

  describe('GET /api/openapi.json', function () {
    it('is OpenAPI 3.1 and documents every route the app serves', async function () {
      const { body } = await http.get('/api/openapi.json').expect(200);
      expect(body.openapi).to.equal('3.1.0');
      const routes = createApiRouter(deps).stack.flatMap((layer) =>
        layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m.toLowerCase()} ${layer.path}`),
      );
      expect(routes.length).to.be.at.least(9);
      for (const route of routes) {
        const [method, routerPath] = route.split(' ');
        const path = routerPath.replace(/:(\w+)/g, '{$1}'); // the router's :param is OpenAPI's {param}
        expect(body.paths[path]?.[method], route).to.be.an('object');
      }
    });

    it('publishes the very schema that validates POST /api/score', async function () {
      const { body } = await http.get('/api/openapi.json').expect(200);
      const published = body.paths['/api/score'].post.requestBody.content['application/json'].schema;
      expect(published).to.deep.equal(JSON.parse(JSON.stringify(scoreRequestSchema)));
      expect(published.properties.target_profile.enum).to.have.length(28);
      expect(body.paths['/api/health-capacity'].get.parameters[0]).to.deep.include({ name: 'iterations', in: 'query' });
    });

    it('words the free tier with the configured cap, and paid operations with the catalog prices', async function () {
      const capped = supertest(createApp(fakeDeps({ FREE_SCORE_LIMIT: '5', FREE_WISHLIST_REQUIRED_FROM: '4' })).callback());
      const { body } = await capped.get('/api/openapi.json').expect(200);
      expect(body.paths['/api/score'].post.summary).to.contain('5 lifetime scores');
      expect(body.paths['/api/score'].post.description).to.contain('free score number 4');
      expect(body.paths['/api/score'].post.responses['429'].description).to.contain('the 5 lifetime free scores');
      expect(JSON.stringify(body.paths['/api/score'])).not.to.contain('3 lifetime');
      expect(body.paths['/api/simulate'].post.summary).to.contain('basic 50000 / deep 180000 USDC units');
      expect(body.info.description).to.contain('5 lifetime scores').and.not.contain('3 lifetime');
    });

    it('declares every {parameter} of a path as a required path parameter', async function () {
      const { body } = await http.get('/api/openapi.json').expect(200);
      const templated = Object.keys(body.paths).filter((p) => p.includes('{'));
      expect(templated.length).to.be.at.least(3);
      for (const path of templated) {
        const names = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
        for (const [method, op] of Object.entries(body.paths[path] as Record<string, { parameters?: Array<{ name: string; in: string; required: boolean }> }>)) {
          for (const name of names) {
            expect(op.parameters?.find((p) => p.in === 'path' && p.name === name), `${method} ${path} ${name}`).to.deep.include({ required: true });
          }
        }
      }
    });
  });
});
