import { expect } from 'chai';
import { mintCredential } from '../../../../shared/operators/credentials';
import { startTestStack, type TestStack } from '../../../helpers/stack';

const RESEARCH = { company_name: 'Parcelwise', site: 'https://parcelwise.example', why_it_fits: 'Their support agent answers 40k tickets a month.', source: 'their careers page' };
const MACHINE = 'Great question! I hope this helps. Let me know if you have any other questions.';
const HUMAN = 'Hi Dana, saw your support team handles most parcel questions with an agent now. We measure how human those replies read. Worth a short call next week?';

describe('operator outreach tools (real PostgreSQL)', function () {
  this.timeout(30_000);
  let stack: TestStack;
  let token: string;

  before(async function () {
    stack = await startTestStack('aei-outreach', { worker: false });
  });
  after(async function () {
    await stack?.close();
  });
  beforeEach(async function () {
    await stack.truncate();
    token = (await mintCredential(stack.deps.dataSource, 'operator', 3_600)).token;
  });

  const as = (method: 'get' | 'post' | 'patch', path: string) => stack.http[method](path).set('Authorization', `Bearer ${token}`);
  const count = async (table: string) => ((await stack.deps.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`)) as Array<{ n: number }>)[0].n;

  it('refuses every outreach path without an operator credential', async function () {
    for (const [method, path] of [
      ['post', '/api/operator/aei-outreach/research'],
      ['get', '/api/operator/aei-outreach/drafts'],
      ['post', '/api/operator/aei-outreach/drafts'],
      ['patch', '/api/operator/aei-outreach/drafts/1'],
    ] as const) {
      const res = await stack.http[method](path).send({});
      expect(res.status, `${method} ${path}`).to.equal(401);
    }
    expect(await count('aei_outreach_research')).to.equal(0);
  });

  it('records research (201), scores each draft against its profile, and edits, approves and marks it sent without sending', async function () {
    const research = await as('post', '/api/operator/aei-outreach/research').send(RESEARCH);
    expect(research.status).to.equal(201);
    expect(research.body).to.include({ company_name: 'Parcelwise', research_id: 1 });
    const machine = await as('post', '/api/operator/aei-outreach/drafts').send({ research_id: research.body.research_id, profile: 'warm-casual-texter', subject: 'Hello', body: MACHINE });
    expect(machine.status, JSON.stringify(machine.body)).to.equal(201);
    expect(machine.body).to.include({ status: 'draft', company_name: 'Parcelwise', approved_at: null, sent_at: null });
    expect(machine.body.score.signals.map((s: { code: string }) => s.code)).to.include('assistant-boilerplate');
    const id = machine.body.draft_id as number;
    expect(id).to.be.a('number');

    const edited = await as('patch', `/api/operator/aei-outreach/drafts/${id}`).send({ body: HUMAN });
    expect(edited.status).to.equal(200);
    expect(edited.body.score.eq_score).to.be.above(machine.body.score.eq_score);
    expect(edited.body.score.signals.map((s: { code: string }) => s.code)).to.not.include('assistant-boilerplate');

    const early = await as('patch', `/api/operator/aei-outreach/drafts/${id}`).send({ status: 'sent' });
    expect(early.status).to.equal(409);
    expect(early.body.error.code).to.equal('draft_not_approved');
    const approved = await as('patch', `/api/operator/aei-outreach/drafts/${id}`).send({ status: 'approved' });
    expect(approved.body.status).to.equal('approved');
    expect(approved.body.approved_at).to.be.a('string');
    // A new text withdraws the approval of the old one.
    const reworded = await as('patch', `/api/operator/aei-outreach/drafts/${id}`).send({ subject: 'Parcel replies', body: `${HUMAN} Thanks!` });
    expect(reworded.body).to.include({ status: 'draft', approved_at: null, subject: 'Parcel replies' });
    await as('patch', `/api/operator/aei-outreach/drafts/${id}`).send({ status: 'approved' }).expect(200);
    const sent = await as('patch', `/api/operator/aei-outreach/drafts/${id}`).send({ status: 'sent' });
    expect(sent.body.status).to.equal('sent');
    expect(sent.body.sent_at).to.be.a('string');
    const final = await as('patch', `/api/operator/aei-outreach/drafts/${id}`).send({ subject: 'again' });
    expect(final.status).to.equal(409);
    expect(final.body.error.code).to.equal('draft_already_sent');

    const list = await as('get', `/api/operator/aei-outreach/drafts?research_id=${research.body.research_id}&status=sent`).expect(200);
    expect(list.body.drafts.map((d: { draft_id: number }) => d.draft_id)).to.deep.equal([id]);
    expect((await as('get', '/api/operator/aei-outreach/drafts?status=draft').expect(200)).body.drafts).to.deep.equal([]);
  });

  it('refuses draft ids that are not integers, and bad input, with 422 naming the field and changing nothing', async function () {
    const research = (await as('post', '/api/operator/aei-outreach/research').send(RESEARCH).expect(201)).body;
    const draft = (await as('post', '/api/operator/aei-outreach/drafts').send({ research_id: research.research_id, profile: 'formal-concierge', subject: 'Hello', body: HUMAN }).expect(201)).body;
    for (const bad of ['abc', '1.5', '-1', '0', '01', '1e3', '%20', '99999999999', 'NaN']) {
      const res = await as('patch', `/api/operator/aei-outreach/drafts/${bad}`).send({ status: 'approved' });
      expect(res.status, bad).to.equal(422);
      expect(res.body.error.details.fields.map((f: { path: string }) => f.path), bad).to.deep.equal(['/draft_id']);
    }
    expect((await as('patch', '/api/operator/aei-outreach/drafts/4242').send({ status: 'approved' })).status).to.equal(404);
    const cases: Array<['post' | 'patch', string, Record<string, unknown>, string]> = [
      ['post', '/api/operator/aei-outreach/research', { ...RESEARCH, site: 'ftp://x.example' }, '/site'],
      ['post', '/api/operator/aei-outreach/research', { ...RESEARCH, company_name: ' ' }, '/company_name'],
      ['post', '/api/operator/aei-outreach/drafts', { research_id: 999, profile: 'formal-concierge', subject: 'Hi', body: HUMAN }, '/research_id'],
      ['post', '/api/operator/aei-outreach/drafts', { research_id: research.research_id, profile: 'robot', subject: 'Hi', body: HUMAN }, '/profile'],
      ['post', '/api/operator/aei-outreach/drafts', { research_id: '1', profile: 'formal-concierge', subject: 'Hi', body: HUMAN }, '/research_id'],
      ['patch', `/api/operator/aei-outreach/drafts/${draft.draft_id}`, { status: 'deleted' }, '/status'],
      ['patch', `/api/operator/aei-outreach/drafts/${draft.draft_id}`, {}, ''],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await as(method, path).send(body);
      expect(res.status, JSON.stringify(body)).to.equal(422);
      expect(res.body.error.details.fields.map((f: { path: string }) => f.path), JSON.stringify(body)).to.include(field);
    }
    expect(await count('aei_outreach_research')).to.equal(1);
    expect(await count('aei_outreach_drafts')).to.equal(1);
    expect((await as('get', '/api/operator/aei-outreach/drafts').expect(200)).body.drafts[0]).to.include({ status: 'draft', updated_at: draft.updated_at });
  });
});
