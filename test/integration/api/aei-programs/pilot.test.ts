import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { createLogger } from '../../../../shared/logger';
import { mintCredential } from '../../../../shared/operators/credentials';
import { startChatProvider, type LocalChatProvider } from '../../../helpers/chat-completions';
import { ANY_TIME, awaitInvitation, enroll, me, PILOT_HEADER, pilotPost, tablesHolding } from '../../../helpers/pilot';
import { startTestStack, type TestStack } from '../../../helpers/stack';
import { until } from '../../../helpers/until';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const AGENT_KEY = 'sk-sponsor-agent-key-7f3a9c1e5b';
const SPONSOR = 'Voyagix Travel';

describe('the pilot: participants and conversations', function () {
  this.timeout(90_000);
  let provider: LocalChatProvider;
  let stack: TestStack;
  let operator: string;
  const lines: string[] = [];

  before(async function () {
    provider = await startChatProvider();
    const port = new URL(provider.url).port;
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    stack = await startTestStack('aei-pilot', {
      env: { MAINTENANCE_EVERY_MS: '1000', OUTBOUND_ALLOW_ADDRESSES: '127.0.0.1', OUTBOUND_ALLOW_PORTS: port, LOG_LEVEL: 'trace' },
      logger: createLogger({ log: { level: 'trace' } }, 'test', sink),
    });
  });
  beforeEach(async function () {
    await stack.truncate();
    operator = (await mintCredential(stack.deps.dataSource, 'operator', 3_600)).token;
    provider.mode = 'ok';
    provider.content = 'Of course, let me look into that for you.';
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
  const asOperator = (method: 'get' | 'post', path: string) => stack.http[method](path).set('Authorization', `Bearer ${operator}`);

  async function sponsor(overrides: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const res = await asOperator('post', '/api/operator/aei/sponsor').send({
      name: SPONSOR,
      domains: ['voyagix.example'],
      topic: 'travel',
      participant_brief: 'Your flight was cancelled and you want to be rebooked for tomorrow.',
      agent_instructions: 'You are a helpful travel support agent.',
      quota_conversations: 20,
      agent: { base_url: provider.url, api_key: AGENT_KEY, model: 'agent-model-1' },
      ...overrides,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.sponsor;
  }

  async function invitedParticipant(prefs: Record<string, unknown> = {}): Promise<string> {
    const token = await enroll(stack.http);
    expect((await pilotPost(stack.http, token, 'preferences', { topics: ['travel'], conversations_per_week: 3, times: ANY_TIME, ...prefs })).status).to.equal(200);
    await awaitInvitation(stack.http, token);
    return token;
  }

  it('runs enroll, preferences, invitation, a blind conversation with the local agent, replies with their delays, feedback and stop', async function () {
    await sponsor();
    const token = await enroll(stack.http);
    // One a week: after this conversation stops, no second invitation comes while the test reads /me.
    const prefs = await pilotPost(stack.http, token, 'preferences', { topics: ['travel'], conversations_per_week: 1, times: ANY_TIME });
    expect(prefs.body.participant.preferences).to.include({ conversations_per_week: 1 });
    const invitation = await awaitInvitation(stack.http, token);
    expect(invitation).to.include({ state: 'offered', topic: 'travel' });

    const started = await pilotPost(stack.http, token, 'invitation/start');
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    expect(started.body.conversation).to.include({ state: 'started', brief: 'Your flight was cancelled and you want to be rebooked for tomorrow.' });

    const first = await pilotPost(stack.http, token, 'reply', { text: 'hi, my flight got cancelled, can you rebook me?' });
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    expect(first.body.agent.text).to.equal('Of course, let me look into that for you.');
    expect(first.body.reply.delay_ms).to.be.a('number').and.at.least(0);
    expect(provider.calls).to.have.length(1);
    expect(provider.calls[0].authorization).to.equal(`Bearer ${AGENT_KEY}`);
    expect(provider.calls[0].body.model).to.equal('agent-model-1');
    expect(provider.calls[0].body.messages).to.deep.equal([
      { role: 'system', content: 'You are a helpful travel support agent.' },
      { role: 'user', content: 'hi, my flight got cancelled, can you rebook me?' },
    ]);

    // The participant thinks for 30 s: the clock of the agent's turn is moved back in the database.
    await query(`UPDATE pilot_turns SET created_at = created_at - interval '30 seconds'`);
    await query(`UPDATE pilot_invitations SET started_at = started_at - interval '30 seconds'`);
    provider.content = `Sure! ${SPONSOR.toUpperCase()} can rebook you, details at voyagix.example.`;
    const second = await pilotPost(stack.http, token, 'reply', { text: 'tomorrow morning please' });
    expect(second.status).to.equal(201);
    expect(second.body.reply.delay_ms).to.be.within(30_000, 40_000);
    expect(second.body.agent.text).to.equal('Sure! [hidden] can rebook you, details at [hidden].');
    expect(provider.calls[1].body.messages).to.have.length(4);

    const turns = await query(`SELECT role, delay_ms, identity_flag FROM pilot_turns ORDER BY seq`);
    expect(turns.map((t) => [t.role, t.delay_ms === null ? null : t.delay_ms >= 30_000, t.identity_flag])).to.deep.equal([
      ['participant', false, false],
      ['agent', null, false],
      ['participant', true, false],
      ['agent', null, true],
    ]);

    const agentTurn = first.body.agent.turn_id as string;
    const rated = await pilotPost(stack.http, token, 'feedback', { turn_id: agentTurn, ratings: { human: 4, warm: 3, direct: 5, hesitant: 1 }, comment: 'felt scripted at the end' });
    expect(rated.status, JSON.stringify(rated.body)).to.equal(201);
    expect(rated.body).to.include({ recorded: true, enters_calibration: false });
    expect((await pilotPost(stack.http, token, 'feedback', { turn_id: agentTurn, ratings: { human: 1, warm: 1, direct: 1, hesitant: 1 } })).body.error.code).to.equal('already_rated');
    const ownReply = await pilotPost(stack.http, token, 'feedback', { turn_id: first.body.reply.turn_id, ratings: { human: 1, warm: 1, direct: 1, hesitant: 1 } });
    expect([ownReply.status, ownReply.body.error.code]).to.deep.equal([422, 'turn_unknown']);
    expect((await pilotPost(stack.http, token, 'feedback', { turn_id: agentTurn, ratings: { human: 6, warm: 1, direct: 1, hesitant: 1 } })).status).to.equal(422);

    const stopped = await pilotPost(stack.http, token, 'conversation/stop');
    expect(stopped.body.conversation).to.include({ state: 'stopped', end_reason: 'participant' });
    expect((await pilotPost(stack.http, token, 'reply', { text: 'hello?' })).body.error.code).to.equal('no_conversation');
    expect(provider.calls).to.have.length(2);

    const view = await me(stack.http, token);
    expect(view.invitation).to.equal(null);
    expect(view.conversation.turns.map((t: { role: string; rated?: boolean }) => [t.role, t.rated])).to.deep.equal([
      ['participant', undefined],
      ['agent', true],
      ['participant', undefined],
      ['agent', false],
    ]);
    // Blind: no answer the participant received names the sponsor, its id or its endpoint.
    const sponsors = (await asOperator('get', '/api/operator/aei/sponsor')).body.sponsors;
    for (const body of [JSON.stringify(view), JSON.stringify(started.body), JSON.stringify(second.body)]) {
      expect(body).not.to.match(new RegExp(`${SPONSOR}|voyagix|${sponsors[0].sponsor_id}|127\\.0\\.0\\.1`, 'i'));
    }
    expect(sponsors[0].usage).to.include({ conversations_started: 1, conversations_stopped: 1, agent_turns: 2, identity_flags: 1, quota_used: 1 });
    expect(sponsors[0].agent).to.include({ calls: 2, failures: 0, key_set: true });
  });

  it('offers nothing while a participant is paused, expires their waiting invitation, and offers again after resume', async function () {
    await sponsor();
    const paused = await invitedParticipant();
    const pausing = await pilotPost(stack.http, paused, 'pause');
    expect(pausing.body.participant.state).to.equal('paused');
    const [withdrawn] = await query(`SELECT state, end_reason FROM pilot_invitations`);
    expect(withdrawn).to.deep.equal({ state: 'expired', end_reason: 'paused' });
    // A participant enrolled after the pause gets an invitation: the job ran with the paused one in view.
    const other = await invitedParticipant();
    expect((await me(stack.http, other)).invitation).to.include({ state: 'offered' });
    expect((await me(stack.http, paused)).invitation).to.equal(null);
    expect((await pilotPost(stack.http, paused, 'invitation/start')).body.error.code).to.equal('no_invitation');

    expect((await pilotPost(stack.http, paused, 'resume')).body.participant.state).to.equal('active');
    expect(await awaitInvitation(stack.http, paused)).to.include({ state: 'offered' });
  });

  it('records a declined invitation, and expires one not started by the repeatable job', async function () {
    await sponsor();
    const decliner = await invitedParticipant({ conversations_per_week: 1 });
    const declined = await pilotPost(stack.http, decliner, 'invitation/decline');
    expect(declined.status).to.equal(200);
    expect(declined.body.invitation).to.include({ state: 'declined' });
    expect((await pilotPost(stack.http, decliner, 'invitation/decline')).body.error.code).to.equal('no_invitation');

    const waiter = await invitedParticipant({ conversations_per_week: 1 });
    const { invitation_id: id } = (await me(stack.http, waiter)).invitation;
    await query(`UPDATE pilot_invitations SET offered_at = offered_at - interval '25 hours', expires_at = now() - interval '1 hour' WHERE id = $1`, [id]);
    await until(async () => (await me(stack.http, waiter)).invitation === null, 20_000, 'the expiry job', 100);
    expect(await query(`SELECT state, end_reason FROM pilot_invitations WHERE id = $1`, [id])).to.deep.equal([{ state: 'expired', end_reason: 'not_started' }]);
    expect((await pilotPost(stack.http, waiter, 'invitation/start')).body.error.code).to.equal('no_invitation');
    // The weekly count of one was used by the expired offer: no second offer this week.
    expect(await query(`SELECT i.state FROM pilot_invitations i WHERE i.id <> $1 AND i.participant_id = (SELECT j.participant_id FROM pilot_invitations j WHERE j.id = $1)`, [id])).to.deep.equal([]);
  });

  it('deletes every row of a participant on DELETE /me: a scan of every table finds neither the token hash nor their text', async function () {
    await sponsor();
    const token = await invitedParticipant();
    await pilotPost(stack.http, token, 'model-consent', { consent: true, consent_version: (await stack.http.get('/api/aei/pilot/consent')).body.model.version });
    await pilotPost(stack.http, token, 'invitation/start');
    const reply = 'my booking reference is QX7-PELICAN-42, please help';
    const comment = 'the agent sounded like a brochure, zebra-marker';
    const exchange = await pilotPost(stack.http, token, 'reply', { text: reply });
    await pilotPost(stack.http, token, 'feedback', { turn_id: exchange.body.agent.turn_id, ratings: { human: 2, warm: 2, direct: 4, hesitant: 1 }, comment });
    // A wording-review rater is shown the consented reply and rates it.
    const version = (await stack.http.get('/api/aei/wording-review/consent')).body.version;
    const rater = await stack.http.post('/api/aei/wording-review/sessions').send({ consent: true, consent_version: version });
    const item = (rater.body.next_items as Array<{ item_id: string; text: string }>).find((i) => i.text === reply);
    expect(item, 'the consented reply is a wording-review item').to.not.equal(undefined);
    expect((await stack.http.post('/api/aei/wording-review/ratings').set('X-AEI-WORDING-TOKEN', rater.body.token).send({ item_id: item!.item_id, ratings: { human: 4, warm: 3, direct: 3, hesitant: 2 } })).status).to.equal(201);

    const ds = stack.deps.dataSource;
    expect(Object.keys(await tablesHolding(ds, sha256(token)))).to.deep.equal(['pilot_participants']);
    expect(Object.keys(await tablesHolding(ds, reply)).sort()).to.deep.equal(['pilot_turns']);
    const deleted = await stack.http.delete('/api/aei/pilot/me').set(PILOT_HEADER, token);
    expect(deleted.status, JSON.stringify(deleted.body)).to.equal(200);
    expect(deleted.body.deleted).to.deep.equal({
      participant: 1,
      invitations: 1,
      conversation_turns: 2,
      replies: 1,
      feedback: 1,
      wording_review_items: 1,
      wording_review_ratings: 1,
      token: true,
    });
    for (const needle of [sha256(token), token, reply, comment, 'QX7-PELICAN', exchange.body.agent.turn_id, exchange.body.reply.turn_id]) {
      expect(await tablesHolding(ds, needle), needle).to.deep.equal({});
    }
    expect(await query(`SELECT * FROM pilot_erasures`)).to.deep.equal([{ id: 1, erased: 1 }]);
    const after = await stack.http.get('/api/aei/pilot/me').set(PILOT_HEADER, token);
    expect([after.status, after.body.error.code]).to.deep.equal([401, 'program_token_invalid']);
    expect((await stack.http.delete('/api/aei/pilot/me').set(PILOT_HEADER, token)).status).to.equal(401);
  });

  it('answers 401, never 404 or 500, for a missing, malformed, unknown or deleted token on every participant path', async function () {
    const deleted = await enroll(stack.http);
    await stack.http.delete('/api/aei/pilot/me').set(PILOT_HEADER, deleted).expect(200);
    const unknown = `hlp_${'A'.repeat(43)}`;
    const paths: Array<['get' | 'post' | 'delete', string, object?]> = [
      ['get', 'me'],
      ['delete', 'me'],
      ['post', 'preferences', { conversations_per_week: 2 }],
      ['post', 'model-consent', { consent: false }],
      ['post', 'pause', {}],
      ['post', 'resume', {}],
      ['post', 'invitation/decline', {}],
      ['post', 'invitation/start', {}],
      ['post', 'reply', { text: 'hello' }],
      ['post', 'conversation/stop', {}],
      ['post', 'feedback', { turn_id: '00000000-0000-4000-8000-000000000000', ratings: { human: 1, warm: 1, direct: 1, hesitant: 1 } }],
    ];
    for (const [method, path, body] of paths) {
      for (const [header, code] of [
        [undefined, 'program_token_required'],
        ['not-a-token', 'program_token_invalid'],
        [unknown, 'program_token_invalid'],
        [deleted, 'program_token_invalid'],
      ] as const) {
        let req = stack.http[method](`/api/aei/pilot/${path}`);
        if (header !== undefined) req = req.set(PILOT_HEADER, header);
        const res = body ? await req.send(body) : await req;
        expect([res.status, res.body.error?.code], `${method} ${path} with ${header}`).to.deep.equal([401, code]);
      }
    }
  });

  it('keeps tokens and the agent key out of every table in clear, out of the logs and out of other answers', async function () {
    const created = await sponsor();
    expect(JSON.stringify(created)).not.to.contain(AGENT_KEY);
    const a = await invitedParticipant();
    const b = await invitedParticipant();
    await pilotPost(stack.http, a, 'invitation/start');
    await pilotPost(stack.http, a, 'reply', { text: 'hello there' });
    const answers = [
      JSON.stringify(await me(stack.http, b)),
      JSON.stringify((await asOperator('get', '/api/operator/aei/sponsor')).body),
      JSON.stringify((await asOperator('get', '/api/operator/aei-pilot-evidence')).body),
      JSON.stringify((await stack.http.get('/api/validation/human-agreement')).body),
    ];
    for (const secret of [a, b, AGENT_KEY]) {
      expect(await tablesHolding(stack.deps.dataSource, secret), 'tables').to.deep.equal({});
      expect(lines.filter((l) => l.includes(secret)), 'logs').to.deep.equal([]);
      for (const answer of answers) expect(answer).not.to.contain(secret);
    }
    expect(lines.length).to.be.greaterThan(10);
    const [sealed] = await query(`SELECT agent_key_sealed FROM pilot_sponsors`);
    expect(sealed.agent_key_sealed).to.match(/^v1\./);
  });

  it('limits feedback posts per participant (429 with Retry-After)', async function () {
    const token = await enroll(stack.http);
    const body = { turn_id: '00000000-0000-4000-8000-000000000000', ratings: { human: 3, warm: 3, direct: 3, hesitant: 3 } };
    const codes: number[] = [];
    for (let i = 0; i < 31; i++) codes.push((await pilotPost(stack.http, token, 'feedback', body)).status);
    expect(codes.slice(0, 30).every((c) => c === 422)).to.equal(true);
    const limited = await pilotPost(stack.http, token, 'feedback', body);
    expect([limited.status, limited.body.error.code]).to.deep.equal([429, 'pilot_rate_limited']);
    expect(Number(limited.headers['retry-after'])).to.be.within(1, 60);
  });
});
