import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { hashBundleToken, newBundleToken } from '../../../../api/payments/bundle-credit/bundle-token';
import { mintCredential } from '../../../../shared/operators/credentials';
import { startChatProvider, type LocalChatProvider } from '../../../helpers/chat-completions';
import { ANY_TIME, awaitInvitation, enroll, me, pilotPost } from '../../../helpers/pilot';
import { startTestStack, type TestStack } from '../../../helpers/stack';

const AGENT_KEY = 'sk-operator-suite-agent-key-91b2';
const RATINGS = [
  { human: 5, warm: 4, direct: 2, hesitant: 1 },
  { human: 2, warm: 1, direct: 5, hesitant: 3 },
  { human: 4, warm: 5, direct: 1, hesitant: 4 },
  { human: 1, warm: 2, direct: 4, hesitant: 5 },
  { human: 3, warm: 3, direct: 3, hesitant: 2 },
];
const AGENT_TEXTS = [
  'oh no, sorry about that, let me sort it out for you',
  'Your request has been processed. Reference number follows.',
  'I completely understand how stressful this must be! Let us fix it together.',
  'Per policy 4.2, rebooking requires form B. Submit it.',
  'hmm, maybe tomorrow works? I am not sure there are seats',
];

describe('the pilot: sponsors, the guard, calibration and evidence', function () {
  this.timeout(120_000);
  let provider: LocalChatProvider;
  let stack: TestStack;
  let operator: string;
  let admin: string;

  before(async function () {
    provider = await startChatProvider();
    stack = await startTestStack('aei-pilot-operator', {
      env: { MAINTENANCE_EVERY_MS: '1000', OUTBOUND_ALLOW_ADDRESSES: '127.0.0.1', OUTBOUND_ALLOW_PORTS: new URL(provider.url).port },
    });
  });
  beforeEach(async function () {
    await stack.truncate();
    operator = (await mintCredential(stack.deps.dataSource, 'operator', 3_600)).token;
    admin = (await mintCredential(stack.deps.dataSource, 'admin', 3_600)).token;
    provider.mode = 'ok';
    provider.content = AGENT_TEXTS[0];
    provider.calls.length = 0;
  });
  after(async function () {
    try {
      await stack?.truncate();
    } finally {
      await stack?.close();
      await provider?.close();
    }
  });

  const query = (sql: string, params: unknown[] = []) => stack.deps.dataSource.query(sql, params) as Promise<Array<Record<string, any>>>;
  const asOperator = (method: 'get' | 'post', path: string, token = operator) => stack.http[method](path).set('Authorization', `Bearer ${token}`);
  const sponsorBody = (overrides: Record<string, unknown> = {}) => ({
    name: 'Northwind Air',
    domains: ['northwind-air.example'],
    topic: 'travel',
    participant_brief: 'You missed a connection and need a new seat.',
    quota_conversations: 50,
    agent: { base_url: provider.url, api_key: AGENT_KEY, model: 'm1' },
    ...overrides,
  });
  async function createSponsor(overrides: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const res = await asOperator('post', '/api/operator/aei/sponsor').send(sponsorBody(overrides));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.sponsor;
  }
  const modelVersion = async () => (await stack.http.get('/api/aei/pilot/consent')).body.model.version as string;

  // A participant who converses once with the sponsor's agent and rates its turn.
  async function conversed(i: number, modelConsent: boolean): Promise<{ token: string; reply: string }> {
    const token = await enroll(stack.http);
    await pilotPost(stack.http, token, 'preferences', { times: ANY_TIME });
    if (modelConsent) expect((await pilotPost(stack.http, token, 'model-consent', { consent: true, consent_version: await modelVersion() })).status).to.equal(200);
    await awaitInvitation(stack.http, token);
    expect((await pilotPost(stack.http, token, 'invitation/start')).status).to.equal(200);
    provider.content = AGENT_TEXTS[i % AGENT_TEXTS.length];
    const reply = `participant ${i} says: my connection left without me ${randomUUID()}`;
    const res = await pilotPost(stack.http, token, 'reply', { text: reply });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const fb = await pilotPost(stack.http, token, 'feedback', { turn_id: res.body.agent.turn_id, ratings: RATINGS[i % RATINGS.length], comment: `secret comment ${i}` });
    expect(fb.body.enters_calibration).to.equal(modelConsent);
    await pilotPost(stack.http, token, 'conversation/stop');
    return { token, reply };
  }

  it('refuses the operator paths without the operator credential (401)', async function () {
    for (const [method, path] of [
      ['get', '/api/operator/aei/sponsor'],
      ['post', '/api/operator/aei/sponsor'],
      ['get', '/api/operator/aei-pilot-evidence'],
    ] as const) {
      const bare = await stack.http[method](path).send(method === 'post' ? sponsorBody() : undefined);
      expect([bare.status, bare.body.error.code], path).to.deep.equal([401, 'credential_required']);
      const wrong = await asOperator(method, path, 'hlo_notavalidcredential');
      expect(wrong.status, path).to.equal(401);
    }
    expect(await query(`SELECT * FROM pilot_sponsors`)).to.deep.equal([]);
  });

  it('creates, validates, changes and pauses sponsors, never showing the agent key', async function () {
    const created = await createSponsor();
    expect(created).to.include({ name: 'Northwind Air', state: 'active', quota_conversations: 50 });
    expect(created.agent).to.deep.include({ base_url: provider.url, model: 'm1', key_set: true });
    expect(JSON.stringify(created)).not.to.contain(AGENT_KEY);

    for (const [body, code, path] of [
      [sponsorBody({ name: 'Other', agent: { base_url: `http://user:pw@127.0.0.1:1/v1`, api_key: 'k', model: 'm' } }), 'validation_failed', '/agent/base_url'],
      [sponsorBody({ name: 'Other', agent: { base_url: 'ftp://agents.example/v1', api_key: 'k', model: 'm' } }), 'validation_failed', '/agent/base_url'],
      [sponsorBody({ name: 'Other', participant_brief: 'Ask NORTHWIND-AIR.example about your seat.' }), 'brief_names_sponsor', '/participant_brief'],
      [sponsorBody({ name: 'Other', topic: 'gardening' }), 'validation_failed', '/topic'],
      [{ name: 'No topic or brief' }, 'validation_failed', ''],
      [{ sponsor_id: 'abc', state: 'paused' }, 'validation_failed', '/sponsor_id'],
    ] as const) {
      const res = await asOperator('post', '/api/operator/aei/sponsor').send(body);
      expect([res.status, res.body.error.code], JSON.stringify(body).slice(0, 80)).to.deep.equal([422, code]);
      if (path) expect(res.body.error.details.fields.map((f: { path: string }) => f.path)).to.include(path);
    }
    expect((await asOperator('post', '/api/operator/aei/sponsor').send(sponsorBody())).body.error.code).to.equal('sponsor_name_taken');
    expect((await asOperator('post', '/api/operator/aei/sponsor').send({ sponsor_id: randomUUID(), state: 'paused' })).status).to.equal(404);
    expect(await query(`SELECT name FROM pilot_sponsors`)).to.deep.equal([{ name: 'Northwind Air' }]);

    const token = await enroll(stack.http);
    await pilotPost(stack.http, token, 'preferences', { times: ANY_TIME });
    await awaitInvitation(stack.http, token);
    const paused = await asOperator('post', '/api/operator/aei/sponsor').send({ sponsor_id: created.sponsor_id, state: 'paused', quota_conversations: 7 });
    expect(paused.status).to.equal(200);
    expect(paused.body.sponsor).to.include({ state: 'paused', quota_conversations: 7 });
    expect(paused.body.sponsor.usage).to.include({ invitations_offered: 1, expired: 1, open: 0, quota_used: 0, quota_left: 7 });
    expect((await me(stack.http, token)).invitation).to.equal(null);
  });

  it("offers invitations only on a participant's topics, inside their hours, and within the sponsor's quota", async function () {
    await createSponsor({ quota_conversations: 1 });
    const hour = new Date().getUTCHours();
    // A window that excludes the current UTC hour (the offering job reads the database's clock, the same machine's).
    const elsewhere = hour < 23 ? { ...ANY_TIME, from_hour_utc: hour + 1, to_hour_utc: 24 } : { ...ANY_TIME, from_hour_utc: 0, to_hour_utc: 23 };
    const banking = await enroll(stack.http);
    await pilotPost(stack.http, banking, 'preferences', { topics: ['banking'], times: ANY_TIME }).expect(200);
    const later = await enroll(stack.http);
    await pilotPost(stack.http, later, 'preferences', { topics: ['travel'], times: elsewhere }).expect(200);
    const first = await enroll(stack.http);
    await pilotPost(stack.http, first, 'preferences', { topics: ['travel'], times: ANY_TIME }).expect(200);
    await awaitInvitation(stack.http, first);
    const second = await enroll(stack.http);
    await pilotPost(stack.http, second, 'preferences', { times: ANY_TIME }).expect(200);
    // Quota 1 is used by the first; declining gives it back, and the next run offers it to the second.
    expect((await me(stack.http, second)).invitation).to.equal(null);
    await pilotPost(stack.http, first, 'invitation/decline').expect(200);
    await awaitInvitation(stack.http, second);
    expect((await me(stack.http, banking)).invitation).to.equal(null);
    expect((await me(stack.http, later)).invitation).to.equal(null);
    expect(await query(`SELECT count(*)::int AS n FROM pilot_invitations`)).to.deep.equal([{ n: 2 }]);
  });

  it('refuses, through the outbound guard, a sponsor endpoint on a private address: 503 to the participant, nothing stored, the reason to the operator', async function () {
    const port = new URL(provider.url).port;
    const created = await createSponsor({ agent: { base_url: `http://127.0.0.2:${port}/v1`, api_key: AGENT_KEY, model: 'm1' } });
    const token = await enroll(stack.http);
    await pilotPost(stack.http, token, 'preferences', { times: ANY_TIME });
    await awaitInvitation(stack.http, token);
    await pilotPost(stack.http, token, 'invitation/start');
    const res = await pilotPost(stack.http, token, 'reply', { text: 'is anyone there?' });
    expect([res.status, res.body.error.code]).to.deep.equal([503, 'agent_unavailable']);
    expect(res.headers['retry-after']).to.equal('30');
    expect(JSON.stringify(res.body)).not.to.match(/127\.0\.0\.2|address|Northwind/);
    expect(provider.calls).to.deep.equal([]);
    expect(await query(`SELECT * FROM pilot_turns`)).to.deep.equal([]);
    const [view] = (await asOperator('get', '/api/operator/aei/sponsor')).body.sponsors;
    expect(view.sponsor_id).to.equal(created.sponsor_id);
    expect(view.agent).to.include({ calls: 1, failures: 1, last_failure: 'address' });

    // The same sponsor on the allowed loopback address answers: the refusal was the address's.
    await asOperator('post', '/api/operator/aei/sponsor').send({ sponsor_id: created.sponsor_id, agent: { base_url: provider.url, api_key: AGENT_KEY, model: 'm1' } }).expect(200);
    expect((await pilotPost(stack.http, token, 'reply', { text: 'is anyone there?' })).status).to.equal(201);
    expect(provider.calls).to.have.length(1);
  });

  it('lets only ratings and replies of participants with model consent into calibration, and withdraws them with it', async function () {
    await createSponsor();
    const withConsent = await conversed(0, true);
    const without = await conversed(1, false);
    const report = async () => (await stack.http.get('/api/admin/aei/wording-review').set('Authorization', `Bearer ${admin}`)).body;
    expect(await report()).to.include({ raters: 1, items_rated: 1 });

    const version = (await stack.http.get('/api/aei/wording-review/consent')).body.version;
    const rater = await stack.http.post('/api/aei/wording-review/sessions').send({ consent: true, consent_version: version });
    const texts = (rater.body.next_items as Array<{ text: string }>).map((i) => i.text);
    expect(texts).to.include(withConsent.reply);
    expect(texts).not.to.include(without.reply);

    const withdrawn = await pilotPost(stack.http, withConsent.token, 'model-consent', { consent: false });
    expect(withdrawn.body.withdrawn).to.deep.equal({ wording_review_items: 1 });
    expect(withdrawn.body.participant.consents.model).to.equal(null);
    expect(await report()).to.include({ raters: 0, items_rated: 0 });
    const again = await stack.http.get('/api/aei/wording-review/session').set('X-AEI-WORDING-TOKEN', rater.body.token);
    expect((again.body.next_items as Array<{ text: string }>).map((i) => i.text)).not.to.include(withConsent.reply);
    expect(await query(`SELECT count(*)::int AS n FROM wording_review_items WHERE pilot_turn_id IS NOT NULL`)).to.deep.equal([{ n: 0 }]);
  });

  it('suppresses every pilot figure resting on fewer than five participants, and shows no free text', async function () {
    await createSponsor();
    const replies: string[] = [];
    for (let i = 0; i < 4; i++) replies.push((await conversed(i, true)).reply);
    const evidence = async () => {
      const res = await asOperator('get', '/api/operator/aei-pilot-evidence');
      expect(res.status).to.equal(200);
      return res.body;
    };
    const four = await evidence();
    expect(four.participants).to.deep.equal({ enrolled: null, active: null, paused: 0, with_model_consent: null, erasures: 0 });
    expect(four.sponsors[0]).to.deep.include({ name: 'Northwind Air', suppressed: true, participants: null, invitations: null, conversations: null, ratings: null, identity_flags: null });
    expect(four.sponsors[0].agreement).to.deep.include({ consented_raters: null, suppressed: true });

    replies.push((await conversed(4, true)).reply);
    const five = await evidence();
    expect(five.participants).to.deep.equal({ enrolled: 5, active: 5, paused: 0, with_model_consent: 5, erasures: 0 });
    const s = five.sponsors[0];
    expect(s).to.deep.include({ suppressed: false, participants: 5, identity_flags: 0 });
    expect(s.conversations).to.include({ started: 5, stopped: 5, replies: 5 });
    expect(s.ratings).to.deep.include({ count: 5, raters: 5 });
    expect(s.ratings.means).to.deep.equal({ human: 3, warm: 3, direct: 3, hesitant: 3 });
    expect(s.agreement.suppressed).to.equal(false);
    expect(s.agreement.by_scale.human.pairs).to.equal(5);
    expect(s.agreement.by_scale.human.rho).to.be.a('number');
    const text = JSON.stringify(five);
    for (const needle of [...replies, 'secret comment', 'missed a connection', ...AGENT_TEXTS]) expect(text).not.to.contain(needle);
  });

  it('aggregates bundle holders\' outcome reports into the corpus insights, suppressed below five bundles', async function () {
    const send = (token: string, body: object) => stack.http.post('/api/aei/outcome').set('X-BUNDLE-TOKEN', token).send(body);
    const tokens: string[] = [];
    for (let i = 0; i < 5; i++) {
      const token = newBundleToken();
      const [auth] = await query(
        `INSERT INTO payment_authorizations (rail, network, asset, payer, nonce, x402_version, resource, product, tier, amount, request_hash, result_id, payment)
         VALUES ('exact-evm', 'eip155:8453', '0xasset', '0xpayer', $1, 2, '/api/bundle', 'bundle', 'bundle', 42500000, $2, $3, '{}') RETURNING id`,
        [`0x${randomBytes(32).toString('hex')}`, randomBytes(32).toString('hex'), randomUUID()],
      );
      await query(
        `INSERT INTO bundles (wallet, plan, source, credits_total, credits_remaining, authorization_id, token_hash) VALUES ('0xpayer', 'bundle', 'purchase', 1000, 1000, $1, $2)`,
        [auth.id, hashBundleToken(token)],
      );
      tokens.push(token);
    }
    const insights = async () => (await asOperator('get', '/api/operator/corpus-insights')).body.reported_uplift;
    for (let i = 0; i < 4; i++) {
      expect((await send(tokens[i], { profile: 'formal-concierge', advice_applied: true, eq_score_before: 40, eq_score_after: 50 + i * 2 })).status).to.equal(201);
    }
    expect((await send(tokens[0], { profile: 'formal-concierge', advice_applied: false, eq_score_before: 60, eq_score_after: 58 })).status).to.equal(201);
    const four = await insights();
    expect(four.totals).to.deep.include({ reports: 5, bundles: null, suppressed: true });
    expect(four.totals.applied).to.deep.equal({ reports: 4, mean_eq_change: null, interval95: null });
    expect((await send(tokens[4], { profile: 'formal-concierge', advice_applied: true, eq_score_before: 40, eq_score_after: 58 })).status).to.equal(201);
    const five = await insights();
    const line = five.profiles.find((p: { profile: string }) => p.profile === 'formal-concierge');
    // Applied: +10, +12, +14, +16, +18 -> mean 14; not applied: -2.
    expect(line).to.deep.include({ reports: 6, bundles: 5, suppressed: false });
    expect(line.applied.mean_eq_change).to.equal(14);
    expect(line.applied.interval95[0]).to.be.below(14);
    expect(line.applied.interval95[1]).to.be.above(14);
    expect(line.not_applied).to.deep.equal({ reports: 1, mean_eq_change: -2 });
    expect(five.totals.applied.mean_eq_change).to.equal(14);
    expect(five.profiles.filter((p: { reports: number }) => p.reports > 0)).to.have.length(1);
  });
});
