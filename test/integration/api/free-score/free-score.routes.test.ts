import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { callerHashFor } from '../../../../api/http/caller-key';
import { reserveFreeRound } from '../../../../api/free-score/free-rounds';
import { ensureFreeCaller } from '../../../../api/http/free-caller';
import { startTestStack, type TestStack } from '../../../helpers/stack';
import { until } from '../../../helpers/until';

const TEXT = 'hey, sorry for the slow reply! yes, 6 works for me, see you there';

function score(stack: TestStack, ip: string, body: object) {
  return stack.http.post('/api/score').set('X-Forwarded-For', ip).send(body);
}

function wish(stack: TestStack, ip: string, text = 'Please add a profile for a patient customer-support lead.') {
  return stack.http.post('/api/wishlist').set('X-Forwarded-For', ip).send({ text });
}

async function callerRow(stack: TestStack, ip: string) {
  const rows = (await stack.deps.dataSource.query('SELECT * FROM free_callers WHERE caller_hash = $1', [
    callerHashFor(ip, stack.config.freeTier.callerHashKey),
  ])) as Array<{ scores_used: number; reservations: number; wishlist_submitted: boolean; consented_at: Date | null }>;
  return rows[0];
}

describe('POST /api/score (free tier)', function () {
  let stack: TestStack;

  before(async function () {
    stack = await startTestStack('score');
  });
  after(async function () {
    await stack?.close();
  });
  beforeEach(async function () {
    await stack.truncate();
  });

  it('scores a consented reply through the queue and reports the free-tier counters', async function () {
    const res = await score(stack, '203.0.113.10', {
      data_consent: true,
      proposed_text: TEXT,
      target_profile: 'warm-casual-texter',
      response_delay_seconds: 25,
      incoming_message: 'are we still on for 6?',
    });
    expect(res.status).to.equal(200);
    expect(res.body.score).to.include.keys('scorer_version', 'human_likeness', 'measures', 'eq_score', 'passed', 'suggested_prompt_addition');
    expect(res.body.score.profile).to.equal('warm-casual-texter');
    expect(res.body.score.eq_score).to.be.within(0, 100);
    // The profile's targets beside the ones used: the practical question lowers the empathy target, with its reason.
    expect(res.body.score.targets.profile.empathy).to.equal(0.8);
    expect(res.body.score.targets.adjusted.empathy).to.equal(res.body.score.dimensions.empathy.target);
    expect(res.body.score.targets.adjustments[0]).to.include({ dimension: 'empathy', profile: 0.8 });
    expect(res.body.free_tier).to.include({ limit: 3, used: 1, remaining: 2 });
    const row = await callerRow(stack, '203.0.113.10');
    expect(row.scores_used).to.equal(1);
    expect(row.consented_at).to.be.instanceOf(Date);
  });

  it('adds the consented reply to the free corpus with its score, without the incoming message', async function () {
    const res = await score(stack, '203.0.113.11', {
      data_consent: true,
      proposed_text: TEXT,
      target_profile: 'terse-senior-engineer',
      response_delay_seconds: 40,
      incoming_message: 'a private message from a third party',
    }).expect(200);
    // The scores are written after the reply was sent.
    await stack.deps.corpusScores.drain();
    const rows = (await stack.deps.dataSource.query('SELECT * FROM free_corpus_entries')) as Array<Record<string, unknown>>;
    expect(rows).to.have.length(1);
    const callerHash = callerHashFor('203.0.113.11', stack.config.freeTier.callerHashKey);
    expect(rows[0]).to.include({
      text: TEXT,
      profile: 'terse-senior-engineer',
      response_delay_seconds: 40,
      caller_hash: callerHash,
      eq_score: res.body.score.eq_score,
      human_likeness: res.body.score.human_likeness,
      passed: res.body.score.passed,
      scorer_version: res.body.score.scorer_version,
    });
    expect(rows[0].scored_at).to.be.instanceOf(Date);
    expect(JSON.stringify(rows[0])).not.to.contain('third party');
    // The row names the job that scored it.
    const job = await stack.deps.scoringQueue.getJob(rows[0].job_id as string);
    expect(await job?.getState()).to.equal('completed');
    expect(job?.returnvalue.score.human_likeness).to.equal(res.body.score.human_likeness);
  });

  it('stores only the keyed hash of the client address, never the address', async function () {
    await score(stack, '198.51.100.77', { data_consent: true, proposed_text: TEXT }).expect(200);
    const dump = JSON.stringify(await stack.deps.dataSource.query('SELECT * FROM free_callers'));
    expect(dump).not.to.contain('198.51.100.77');
    expect(await callerRow(stack, '198.51.100.77')).to.exist;
  });

  for (const [label, body] of [
    ['data_consent is false', { data_consent: false, proposed_text: TEXT }],
    ['data_consent is the string "true"', { data_consent: 'true', proposed_text: TEXT }],
    ['data_consent is missing', { proposed_text: TEXT }],
  ] as const) {
    it(`answers 422 data_consent_required and consumes nothing when ${label}`, async function () {
      const res = await score(stack, '203.0.113.20', body);
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('data_consent_required');
      expect(res.body.error.details.fields.map((f: { path: string }) => f.path)).to.include('/data_consent');
      expect(await callerRow(stack, '203.0.113.20')).to.equal(undefined);
    });
  }

  it('needs a wishlist item before the third score, without consuming a round', async function () {
    const ip = '203.0.113.30';
    await score(stack, ip, { data_consent: true, proposed_text: TEXT }).expect(200);
    await score(stack, ip, { data_consent: true, proposed_text: TEXT }).expect(200);
    const refused = await score(stack, ip, { data_consent: true, proposed_text: TEXT });
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.include({ code: 'wishlist_required' });
    expect(refused.body.error.details).to.include({ used: 2, wishlist_endpoint: '/api/wishlist' });
    expect((await callerRow(stack, ip)).scores_used).to.equal(2);

    await wish(stack, ip).expect(201);
    const third = await score(stack, ip, { data_consent: true, proposed_text: TEXT });
    expect(third.status).to.equal(200);
    expect(third.body.free_tier).to.include({ used: 3, remaining: 0 });
  });

  it('answers 429 with an upgrade block to the paid flow once the 3 lifetime scores are used', async function () {
    const ip = '203.0.113.40';
    await wish(stack, ip).expect(201);
    for (let i = 0; i < 3; i++) await score(stack, ip, { data_consent: true, proposed_text: TEXT }).expect(200);
    const res = await score(stack, ip, { data_consent: true, proposed_text: TEXT });
    expect(res.status).to.equal(429);
    expect(res.body.error).to.include({ code: 'free_cap_reached' });
    expect(res.body.error.details).to.deep.equal({ limit: 3, used: 3 });
    expect(res.body.upgrade.paid_flow).to.include({
      method: 'POST',
      endpoint: '/api/simulate',
      price_usdc_units: 50000,
      protocol: 'x402',
      network: 'eip155:8453',
    });
    expect((await callerRow(stack, ip)).scores_used).to.equal(3);
  });

  it('gives exactly 3 scores to 20 concurrent calls from one caller', async function () {
    const ip = '203.0.113.50';
    await wish(stack, ip).expect(201);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => score(stack, ip, { data_consent: true, proposed_text: `${TEXT} (${i})` })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(3);
    expect(statuses.filter((s) => s === 429)).to.have.length(17);
    expect((await callerRow(stack, ip)).scores_used).to.equal(3);
    const corpus = (await stack.deps.dataSource.query('SELECT count(*)::int AS n FROM free_corpus_entries')) as Array<{ n: number }>;
    expect(corpus[0].n).to.equal(3);
  });

  it('never answers a refused request with a score, nor keeps its reply, though its job was queued beside the reservation', async function () {
    const ip = '203.0.113.45';
    await wish(stack, ip).expect(201);
    for (let i = 0; i < 3; i++) await score(stack, ip, { data_consent: true, proposed_text: TEXT }).expect(200);
    const refused = await score(stack, ip, { data_consent: true, proposed_text: `${TEXT}, refused` });
    expect(refused.status).to.equal(429);
    expect(refused.body).not.to.have.property('score');
    const corpus = (await stack.deps.dataSource.query('SELECT text FROM free_corpus_entries')) as Array<{ text: string }>;
    expect(corpus.map((r) => r.text)).not.to.include(`${TEXT}, refused`);
    expect((await callerRow(stack, ip)).scores_used).to.equal(3);
  });

  describe('with no worker running', function () {
    let idle: TestStack;
    before(async function () {
      idle = await startTestStack('score-idle', { worker: false, env: { FREE_SCORE_LIMIT: '0' } });
    });
    after(async function () {
      await idle?.close();
    });

    it('removes the job a refused request queued beside its reservation', async function () {
      const waiting = await idle.deps.scoringQueue.getWaitingCount();
      const res = await score(idle, '203.0.113.46', { data_consent: true, proposed_text: TEXT });
      expect(res.status).to.equal(429);
      await until(async () => (await idle.deps.scoringQueue.getWaitingCount()) === waiting, 5_000, 'the refused request\'s job removed');
    });
  });

  it('gives exactly 2 scores to 20 concurrent calls from a caller without a wishlist item', async function () {
    const ip = '203.0.113.51';
    const responses = await Promise.all(Array.from({ length: 20 }, () => score(stack, ip, { data_consent: true, proposed_text: TEXT })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(2);
    expect(statuses.filter((s) => s === 403)).to.have.length(18);
  });

  it('counts callers separately by their client address', async function () {
    await score(stack, '203.0.113.60', { data_consent: true, proposed_text: TEXT }).expect(200);
    const other = await score(stack, '203.0.113.61', { data_consent: true, proposed_text: TEXT }).expect(200);
    expect(other.body.free_tier.used).to.equal(1);
  });

  it('answers 422 for text over the scorer limit and consumes nothing', async function () {
    const res = await score(stack, '203.0.113.70', { data_consent: true, proposed_text: 'a'.repeat(20_001) });
    expect(res.status).to.equal(422);
    expect(res.body.error.code).to.equal('validation_failed');
    expect(res.body.error.details.fields).to.deep.include({ path: '/proposed_text', rule: 'maxLength', message: 'must NOT have more than 20000 characters' });
    expect(await callerRow(stack, '203.0.113.70')).to.equal(undefined);
  });

  it('refuses a confidently non-English reply with 422 unsupported_language and consumes nothing', async function () {
    const res = await score(stack, '203.0.113.73', {
      data_consent: true,
      proposed_text: 'Lo siento muchísimo, debe ser muy difícil para ti. Estoy aquí contigo si quieres hablar esta noche.',
      target_profile: 'grief-support-peer',
    });
    expect(res.status).to.equal(422);
    expect(res.body.error.code).to.equal('unsupported_language');
    expect(res.body.error.message).to.match(/Spanish \(es\).*English only/);
    expect(res.body.error.details.fields).to.deep.equal([{ path: '/proposed_text', rule: 'unsupported_language', message: res.body.error.message }]);
    expect(await callerRow(stack, '203.0.113.73')).to.equal(undefined);
    const short = await score(stack, '203.0.113.73', { data_consent: true, proposed_text: 'gracias!', target_profile: 'warm-casual-texter' });
    expect(short.status, 'a text too short to tell is scored').to.equal(200);
  });

  it('relays the scorer refusal across the queue as a 422 and gives the round back', async function () {
    // 15,000 emoji pass the schema (code points) but are 30,000 UTF-16 units, over the scorer's limit.
    const res = await score(stack, '203.0.113.72', { data_consent: true, proposed_text: '\u{1F600}'.repeat(15_000) });
    expect(res.status).to.equal(422);
    expect(res.body.error.code).to.equal('text_too_long');
    expect(res.body.error.details.fields[0]).to.include({ path: '/proposed_text' });
    expect((await callerRow(stack, '203.0.113.72')).scores_used).to.equal(0);
    const corpus = (await stack.deps.dataSource.query('SELECT count(*)::int AS n FROM free_corpus_entries')) as Array<{ n: number }>;
    expect(corpus[0].n, 'an unscored round leaves no reply in the corpus').to.equal(0);
  });

  it('answers 413 for a body over the size limit', async function () {
    const res = await score(stack, '203.0.113.71', { data_consent: true, proposed_text: 'a'.repeat(400_000) });
    expect(res.status).to.equal(413);
    expect(res.body.error.code).to.equal('payload_too_large');
  });

  describe('reserveFreeRound', function () {
    const draft = { text: TEXT };
    const hash = (n: number) => createHash('sha256').update(String(n)).digest('hex');

    it('refuses a first round when the rules want a wishlist item first, and creates no caller', async function () {
      const rules = { scoreLimit: 2, wishlistRequiredFrom: 1 };
      expect(await reserveFreeRound(stack.deps.dataSource, hash(1), rules, draft, 'free-test-1')).to.deep.equal({ ok: false, reason: 'wishlist_required', used: 0 });
      const callers = (await stack.deps.dataSource.query('SELECT count(*)::int AS n FROM free_callers')) as Array<{ n: number }>;
      expect(callers[0].n).to.equal(0);
    });

    it('reserves for a caller with a wishlist item, up to the cap, one corpus row per round', async function () {
      const rules = { scoreLimit: 2, wishlistRequiredFrom: 1 };
      await ensureFreeCaller(stack.deps.dataSource, hash(2));
      await stack.deps.dataSource.query('UPDATE free_callers SET wishlist_submitted = true WHERE caller_hash = $1', [hash(2)]);
      const first = await reserveFreeRound(stack.deps.dataSource, hash(2), rules, draft, 'free-a');
      const second = await reserveFreeRound(stack.deps.dataSource, hash(2), rules, draft, 'free-b');
      const third = await reserveFreeRound(stack.deps.dataSource, hash(2), rules, draft, 'free-c');
      expect(first).to.include({ ok: true, used: 1 });
      expect(second).to.include({ ok: true, used: 2 });
      expect(third).to.deep.equal({ ok: false, reason: 'cap_reached', used: 2 });
      const rows = (await stack.deps.dataSource.query('SELECT job_id FROM free_corpus_entries ORDER BY job_id')) as Array<{ job_id: string }>;
      expect(rows.map((r) => r.job_id)).to.deep.equal(['free-a', 'free-b']);
    });

    it('gives nothing when the cap is zero', async function () {
      const rules = { scoreLimit: 0, wishlistRequiredFrom: 3 };
      expect(await reserveFreeRound(stack.deps.dataSource, hash(3), rules, draft, 'free-test-3')).to.deep.equal({ ok: false, reason: 'cap_reached', used: 0 });
    });
  });
});
