import { createHash, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { mintCredential } from '../../../../shared/operators/credentials';
import { PROFILES } from '../../../../shared/profiles';
import { seedLedgerSessions } from '../../../helpers/ledger-seed';
import { startTestStack, type TestStack } from '../../../helpers/stack';

const P1 = PROFILES[0].id;
const P2 = PROFILES[1].id;
const callerHash = (name: string) => createHash('sha256').update(name).digest('hex');

/** The operator reads over the free corpus, the outreach status and the public-results funnel. */
describe('operator reads', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let token: string;
  let n = 0;
  const asOperator = (method: 'get' | 'post', path: string) => {
    n += 1;
    return stack.http[method](path).set('X-Forwarded-For', `10.70.0.${n % 250}`).set('Authorization', `Bearer ${token}`);
  };

  before(async function () {
    stack = await startTestStack('operator-reads', { worker: false });
  });
  beforeEach(async function () {
    await stack.truncate();
    token = (await mintCredential(stack.deps.dataSource, 'operator', 3_600)).token;
  });
  after(async function () {
    try {
      await stack?.truncate();
    } finally {
      await stack?.close();
    }
  });

  describe('GET /api/operator/corpus-insights', function () {
    // [caller, profile, text, eq_score (null: not scored), minutes after the start]
    type Entry = [string, string | null, string, number | null, number];
    const ENTRIES: Entry[] = [
      ['A', P1, 'Hi there', 60, 0],
      ['A', P1, 'A better reply', 70, 1],
      ['A', P1, 'The best reply', 80, 2],
      ['B', P1, 'Another one', 50, 3],
      ['B', P1, '  another   ONE ', 90, 4], // B's own text again: not a clean sample
      ['B', P1, 'Yet another one', 40, 5],
      ['C', P1, 'hi  THERE', 99, 6], // A's text: not a clean sample
      ['C', P1, 'Solo reply', 55, 7],
      ['C', P1, 'Never scored', null, 8],
      ['C', null, 'No profile named', 10, 9],
      ['D', P2, 'First try', 30, 10],
      ['D', P2, 'Second try', 50, 11],
    ];
    const SECRET = 'Hi there';

    beforeEach(async function () {
      const start = Date.now() - 3_600_000;
      for (const caller of new Set(ENTRIES.map((e) => e[0]))) {
        await stack.deps.dataSource.query(`INSERT INTO free_callers (caller_hash, scores_used, reservations) VALUES ($1, 3, 3)`, [callerHash(caller)]);
      }
      for (const [caller, profile, text, score, minute] of ENTRIES) {
        await stack.deps.dataSource.query(
          `INSERT INTO free_corpus_entries (job_id, caller_hash, profile, text, eq_score, scored_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [randomUUID(), callerHash(caller), profile, text, score, score === null ? null : new Date(start + minute * 60_000 + 1_000), new Date(start + minute * 60_000)],
        );
      }
    });

    it('counts clean samples per profile with their average score and the uplift of callers who scored again', async function () {
      const res = await asOperator('get', '/api/operator/corpus-insights');
      expect(res.status).to.equal(200);
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(res.body.profiles.map((p: { profile: string }) => p.profile)).to.deep.equal(PROFILES.map((p) => p.id));
      const byId = Object.fromEntries((res.body.profiles as Array<{ profile: string }>).map((p) => [p.profile, p]));
      // A: 60 then 70, 80 (+15); B: 50 then 40 (-10); C: one clean sample, not measured.
      expect(byId[P1]).to.deep.equal({ profile: P1, clean_samples: 6, average_eq_score: 59.17, uplift: { mean_eq_change: 2.5, callers_measured: 2 } });
      expect(byId[P2]).to.deep.equal({ profile: P2, clean_samples: 2, average_eq_score: 40, uplift: { mean_eq_change: 20, callers_measured: 1 } });
      expect(byId[PROFILES[2].id]).to.deep.equal({ profile: PROFILES[2].id, clean_samples: 0, average_eq_score: null, uplift: { mean_eq_change: null, callers_measured: 0 } });
      expect(res.body.totals).to.deep.equal({ clean_samples: 8, average_eq_score: 54.38, uplift: { mean_eq_change: 8.33, callers_measured: 3 } });
      expect(res.body.definitions.uplift).to.match(/later scores minus their first/);
      // Aggregates only.
      expect(res.text).not.to.contain(SECRET);
      expect(res.text).not.to.contain(callerHash('A'));
    });
  });

  describe('GET and POST /api/outreach/status', function () {
    it('starts empty, merges updates, and answers with the whole map', async function () {
      const empty = await asOperator('get', '/api/outreach/status');
      expect(empty.status).to.equal(200);
      expect(empty.body).to.deep.equal({});

      const first = await asOperator('post', '/api/outreach/status').send({ 'lead-1': true, 'acme.co:42': false });
      expect(first.status).to.equal(200);
      expect(first.body).to.deep.equal({ 'acme.co:42': false, 'lead-1': true });
      const second = await asOperator('post', '/api/outreach/status').send({ 'acme.co:42': true, lead_3: false });
      expect(second.body).to.deep.equal({ 'acme.co:42': true, 'lead-1': true, lead_3: false });
      expect((await asOperator('get', '/api/outreach/status')).body).to.deep.equal(second.body);

      const rows = (await stack.deps.dataSource.query(`SELECT lead_id, updated_by FROM outreach_status WHERE lead_id = 'acme.co:42'`)) as Array<{ updated_by: string }>;
      expect(rows).to.have.length(1);
      expect(rows[0].updated_by).to.be.a('string');
    });

    it('refuses bad lead ids, non-boolean values, empty and oversized updates (422) and stores nothing', async function () {
      const big = Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`lead-${i}`, true]));
      for (const body of [{ 'lead 1': true }, { '-lead': true }, { ['x'.repeat(65)]: true }, { 'lead-1': 'yes' }, {}, big, [{ 'lead-1': true }]]) {
        const r = await asOperator('post', '/api/outreach/status').send(body);
        expect(r.status, JSON.stringify(body).slice(0, 60)).to.equal(422);
        expect(r.body.error.code).to.be.a('string');
      }
      const bad = await asOperator('post', '/api/outreach/status').send({ 'lead 1': true });
      expect(bad.body.error.details.fields[0].path).to.be.a('string');
      const rows = (await stack.deps.dataSource.query(`SELECT count(*)::int AS n FROM outreach_status`)) as Array<{ n: number }>;
      expect(rows[0].n).to.equal(0);
    });
  });

  describe('GET /api/operator/public-results/conversion', function () {
    const utcDay = (d: Date) => d.toISOString().slice(0, 10);

    it('counts public result and certificate views per UTC day beside the paid calls and first paid calls, with no identity', async function () {
      const ds = stack.deps.dataSource;
      const payerX = '0x' + 'a1'.repeat(20);
      const payerY = '0x' + 'b2'.repeat(20);
      const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000);
      const justNow = new Date(Date.now() - 60_000);
      await seedLedgerSessions(ds, { payer: payerX, profile: P1, scores: [80], start: threeDaysAgo, tag: 'old' });
      await seedLedgerSessions(ds, { payer: payerX, profile: P1, scores: [85], start: justNow, tag: 'again' });
      await seedLedgerSessions(ds, { payer: payerY, profile: P1, scores: [90], start: justNow, tag: 'new' });
      const [session] = (await ds.query(`SELECT result_id, id FROM ledger_sessions WHERE payer = $1`, [payerY])) as Array<{ result_id: string; id: string }>;
      const tx = '0x' + 'c3'.repeat(32);
      await ds.query(`UPDATE ledger_sessions SET transaction = $1 WHERE id = $2`, [tx, session.id]);
      const today = ((await ds.query(`SELECT to_char((now() AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS d`)) as Array<{ d: string }>)[0].d;

      // Through the public API: 3 result views, 2 certificate views (JSON and the HTML page); misses are not views.
      for (let i = 0; i < 3; i++) expect((await stack.http.get(`/api/results/${session.result_id}`)).status).to.equal(200);
      expect((await stack.http.get(`/api/certificate/${tx}`)).status).to.equal(200);
      expect((await stack.http.get(`/api/certificate/${tx}`).set('Accept', 'text/html')).status).to.equal(200);
      expect((await stack.http.get(`/api/results/${randomUUID()}`)).status).to.equal(404);
      expect((await stack.http.get(`/api/certificate/0x${'d4'.repeat(32)}`)).status).to.equal(404);

      const res = await asOperator('get', '/api/operator/public-results/conversion?days=7');
      expect(res.status).to.equal(200);
      expect(res.body.window).to.deep.equal({ from: res.body.days[0].date, to: today, days: 7 });
      expect(res.body.days).to.have.length(7);
      const byDay = Object.fromEntries((res.body.days as Array<{ date: string }>).map((d) => [d.date, d]));
      expect(byDay[today]).to.deep.include({ result_views: 3, certificate_views: 2 });
      const old = byDay[utcDay(threeDaysAgo)];
      expect(old).to.deep.equal({ date: utcDay(threeDaysAgo), result_views: 0, certificate_views: 0, paid_calls: 1, first_paid_calls: 1 });
      expect(res.body.totals).to.deep.equal({
        result_views: 3,
        certificate_views: 2,
        public_views: 5,
        paid_calls: 3,
        first_paid_calls: 2,
        paid_calls_per_100_views: 60,
        first_paid_calls_per_100_views: 40,
      });
      expect(res.body.attribution).to.match(/same-day/i);
      expect(res.text.toLowerCase()).not.to.contain(payerX.slice(2));
      expect(res.text).not.to.contain(session.result_id);
      expect(res.text).not.to.contain(tx.slice(2));

      // A one-day window holds only today.
      const oneDay = await asOperator('get', '/api/operator/public-results/conversion?days=1');
      expect(oneDay.body.days.map((d: { date: string }) => d.date)).to.deep.equal([today]);
      expect(oneDay.body.totals.first_paid_calls).to.equal(utcDay(justNow) === today ? 1 : 0);
    });

    it('defaults to 30 days and refuses a bad window (422)', async function () {
      const res = await asOperator('get', '/api/operator/public-results/conversion');
      expect(res.status).to.equal(200);
      expect(res.body.days).to.have.length(30);
      expect(res.body.totals.paid_calls_per_100_views).to.equal(null);
      for (const q of ['days=0', 'days=367', 'days=abc', 'days=2.5', 'other=1']) {
        const bad = await asOperator('get', `/api/operator/public-results/conversion?${q}`);
        expect(bad.status, q).to.equal(422);
      }
    });
  });
});
