import { expect } from 'chai';
import { mintCredential } from '../../../../shared/operators/credentials';
import { buyActiveCompany, type ActiveCompany } from '../../../helpers/company';
import { startCardStack, type CardStack } from '../../../helpers/card-stack';

const COMPANY = 'X-AEI-COMPANY-TOKEN';
const DRAFT = 'Great question! I hope this helps. Let me know if you have any other questions.';

describe('company outcomes and the operator evidence (real PostgreSQL, Redis and card processor)', function () {
  this.timeout(120_000);
  let cards: CardStack;
  let operator: string;

  before(async function () {
    cards = await startCardStack('aei-outcome', { worker: false });
  });
  after(async function () {
    await cards?.close();
  });
  beforeEach(async function () {
    await cards.stack.truncate();
    operator = (await mintCredential(cards.stack.deps.dataSource, 'operator', 3_600)).token;
  });

  const http = () => cards.stack.http;
  const evidence = async () => (await http().get('/api/operator/aei-evidence').set('Authorization', `Bearer ${operator}`).expect(200)).body;
  const report = (company: ActiveCompany, body: Record<string, unknown>) => http().post('/api/aei/company/outcome').set(COMPANY, company.companyToken).send(body);
  const resolution = (before: [number, number], after: [number, number], period = { start: '2026-10-01', end: '2026-10-31' }) => ({
    metric: 'resolution_rate',
    period,
    before: { rate: before[0], conversations: before[1] },
    after: { rate: after[0], conversations: after[1] },
  });

  it('runs the flow: checkout, webhook, claim, guide, usage, outcome, and the evidence withheld below five companies and shown at five', async function () {
    const companies: ActiveCompany[] = [];
    for (let i = 0; i < 5; i += 1) companies.push(await buyActiveCompany(cards));
    for (const [i, company] of companies.entries()) {
      expect((await http().post('/api/aei/guide').set(COMPANY, company.companyToken).send({ draft: DRAFT, profile: 'upbeat-support-agent' })).status).to.equal(200);
      const usage = (await http().get('/api/aei/company/usage').set(COMPANY, company.companyToken).expect(200)).body;
      expect(usage.allowances.guide_calls.used).to.equal(1);
      if (i === 4) break;
      const res = await report(company, resolution([0.5, 100], [0.6, 100]));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.uplift).to.equal(0.1);
    }
    const four = await evidence();
    expect(four.companies).to.deep.equal({ active: 5, reporting: 4 });
    expect(four.guide_calls).to.deep.equal({ companies: 5, total: 5, suppressed: false });
    const r4 = four.outcomes.find((o: { metric: string }) => o.metric === 'resolution_rate');
    expect(r4).to.include({ suppressed: true, companies: null, reports: null, rate_before: null, rate_after: null, uplift: null, interval95: null });

    expect((await report(companies[4], resolution([0.4, 300], [0.5, 300]))).status).to.equal(201);
    const five = await evidence();
    const r5 = five.outcomes.find((o: { metric: string }) => o.metric === 'resolution_rate');
    // Pooled: before (4 x 50 + 120) / 700, after (4 x 60 + 150) / 700.
    expect(r5).to.include({ suppressed: false, companies: 5, reports: 5, conversations_before: 700, conversations_after: 700 });
    expect(r5.rate_before).to.be.closeTo(320 / 700, 1e-4);
    expect(r5.rate_after).to.be.closeTo(390 / 700, 1e-4);
    expect(r5.uplift).to.be.closeTo(70 / 700, 1e-4);
    expect(r5.interval95[0]).to.be.below(r5.uplift);
    expect(r5.interval95[1]).to.be.above(r5.uplift);
    expect(r5.interval95[1] - r5.interval95[0]).to.be.closeTo(2 * 1.96 * Math.sqrt((0.4571 * 0.5429) / 700 + (0.5571 * 0.4429) / 700), 1e-3);
    // Other metrics nobody reported are empty, not withheld.
    expect(five.outcomes.find((o: { metric: string }) => o.metric === 'escalation_rate')).to.include({ companies: 0, suppressed: false });
    // No company is named anywhere in the evidence.
    expect(JSON.stringify(five)).to.not.match(/hlc_|hlb_|[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('refuses the evidence without an operator credential', async function () {
    expect((await http().get('/api/operator/aei-evidence')).status).to.equal(401);
    expect((await http().get('/api/operator/aei-evidence').set('Authorization', 'Bearer nope')).status).to.equal(401);
  });

  it('refuses bad outcome reports with 422 naming the field and a repeated one with 409, storing nothing more', async function () {
    const company = await buyActiveCompany(cards);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...resolution([0.5, 10], [0.6, 10]), metric: 'happiness' }, '/metric'],
      [resolution([1.5, 10], [0.6, 10]), '/before/rate'],
      [resolution([0.5, 0], [0.6, 10]), '/before/conversations'],
      [resolution([0.5, 10], [0.6, 10.5]), '/after/conversations'],
      [resolution([0.5, 10], [0.6, 10], { start: '2026-10-31', end: '2026-10-01' }), '/period/start'],
      [resolution([0.5, 10], [0.6, 10], { start: '2026-10-01', end: tomorrow }), '/period/end'],
      [resolution([0.5, 10], [0.6, 10], { start: 'October', end: '2026-10-31' }), '/period/start'],
      [{ ...resolution([0.5, 10], [0.6, 10]), transcript: 'hello' }, '/transcript'],
    ];
    for (const [body, field] of cases) {
      const res = await report(company, body);
      expect(res.status, JSON.stringify(body)).to.equal(422);
      expect(res.body.error.details.fields.map((f: { path: string }) => f.path), JSON.stringify(body)).to.include(field);
    }
    expect(await cards.count('aei_company_outcomes')).to.equal(0);
    expect((await report(company, resolution([0.5, 10], [0.6, 10]))).status).to.equal(201);
    const again = await report(company, resolution([0.1, 10], [0.9, 10]));
    expect(again.status).to.equal(409);
    expect(again.body.error.code).to.equal('outcome_already_reported');
    expect(await cards.count('aei_company_outcomes')).to.equal(1);
    // Without an active company token nothing is taken.
    const pending = (await http().post('/api/aei/company/checkout').send({}).expect(201)).body.company_token as string;
    for (const token of [undefined, pending, `hlc_${'B'.repeat(43)}`]) {
      const req = http().post('/api/aei/company/outcome').send(resolution([0.5, 10], [0.6, 12]));
      if (token) req.set(COMPANY, token);
      expect((await req).status).to.equal(401);
    }
    expect(await cards.count('aei_company_outcomes')).to.equal(1);
  });

  it('takes bundle holders\' conversation outcomes and shows their uplift from five bundles on', async function () {
    const companies: ActiveCompany[] = [];
    for (let i = 0; i < 5; i += 1) companies.push(await buyActiveCompany(cards));
    const send = (token: string | undefined, body: Record<string, unknown>) => {
      const req = http().post('/api/aei/outcome').send(body);
      if (token) req.set('X-BUNDLE-TOKEN', token);
      return req;
    };
    expect((await send(undefined, { profile: 'formal-concierge', advice_applied: true, eq_score_before: 40, eq_score_after: 60 })).status).to.equal(401);
    const bad = await send(companies[0].bundleToken, { profile: 'formal-concierge', advice_applied: 'yes', eq_score_before: 40, eq_score_after: 160 });
    expect(bad.status).to.equal(422);
    expect(bad.body.error.details.fields.map((f: { path: string }) => f.path)).to.include.members(['/advice_applied', '/eq_score_after']);
    expect(await cards.count('aei_bundle_outcomes')).to.equal(0);
    for (const [i, c] of companies.entries()) {
      const res = await send(c.bundleToken, { profile: 'formal-concierge', advice_applied: true, eq_score_before: 40, eq_score_after: 50 + i * 2, resolved: true });
      expect(res.status).to.equal(201);
      expect(res.body.uplift).to.equal(10 + i * 2);
      if (i === 3) expect((await evidence()).bundle_outcomes).to.include({ suppressed: true, mean_uplift: null, bundles: null });
    }
    const shown = (await evidence()).bundle_outcomes;
    expect(shown).to.include({ suppressed: false, bundles: 5, reports: 5, advice_applied: 5, mean_uplift: 14 });
    expect(shown.interval95[0]).to.be.below(14);
    expect(shown.interval95[1]).to.be.above(14);
  });
});
