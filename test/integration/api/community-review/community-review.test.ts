import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { startTestStack, type TestStack } from '../../../helpers/stack';

const SECRET = /^crs_[A-Za-z0-9_-]{43}$/;
const DIMENSIONS = ['human_likeness', 'empathy', 'formality', 'directness', 'hesitation'] as const;

interface Engine {
  human_likeness: number;
  measures: Record<string, number>;
}

interface Sample {
  sample_id: string;
  reply: string;
  rated: boolean;
  ratings: Record<string, number> | null;
  engine: Engine | null;
}

/** Average ranks (ties share the mean of their positions), 1-based. */
function ranks(xs: number[]): number[] {
  const order = xs.map((x, i) => ({ x, i })).sort((a, b) => a.x - b.x);
  const out = new Array<number>(xs.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && order[end + 1].x === order[start].x) end++;
    for (let k = start; k <= end; k++) out[order[k].i] = (start + end) / 2 + 1;
    start = end + 1;
  }
  return out;
}

function pearson(x: number[], y: number[]): number {
  const mx = x.reduce((a, b) => a + b, 0) / x.length;
  const my = y.reduce((a, b) => a + b, 0) / y.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < x.length; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

function engineValue(engine: Engine, dimension: string): number {
  return dimension === 'human_likeness' ? engine.human_likeness / 100 : engine.measures[dimension];
}

describe('community review', function () {
  this.timeout(60_000);
  let stack: TestStack;

  before(async function () {
    // Generous limits here: the rate-limit suite below has its own stack with small ones.
    stack = await startTestStack('community-review', {
      worker: false,
      env: { COMMUNITY_REVIEW_SESSIONS_PER_HOUR: '1000', COMMUNITY_REVIEW_RESPONSES_PER_HOUR: '1000' },
    });
    await stack.truncate();
  });
  after(async function () {
    await stack?.close();
  });

  async function consent(body: Record<string, unknown> = { consent: true }) {
    const res = await stack.http.post('/api/community-review/sessions').send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body as { session_id: string; session_secret: string; samples: Sample[] };
  }

  async function rate(sessionId: string, secret: string, responses: unknown[]) {
    return stack.http.post(`/api/community-review/sessions/${sessionId}/responses`).send({ session_secret: secret, responses });
  }

  describe('POST /api/community-review/sessions', function () {
    it('answers 201 with the samples to rate, blind, and a secret shown once and stored only as its hash', async function () {
      const res = await stack.http.post('/api/community-review/sessions').send({ consent: true });
      expect(res.status).to.equal(201);
      expect(res.headers.location).to.equal(`/api/community-review/sessions/${res.body.session_id}`);
      expect(res.body.session_secret).to.match(SECRET);
      expect(res.body.samples).to.have.length(6);
      expect(new Set(res.body.samples.map((s: Sample) => s.sample_id)).size).to.equal(6);
      for (const s of res.body.samples as Sample[]) {
        expect(s).to.include({ rated: false, ratings: null, engine: null });
        expect(s.reply).to.be.a('string').and.not.empty;
      }
      expect(res.body.progress).to.deep.equal({ samples: 6, rated: 0 });
      expect(res.body.dimensions.map((d: { id: string }) => d.id)).to.deep.equal([...DIMENSIONS]);
      expect(res.body.scale).to.deep.equal({ min: 1, max: 5 });
      const [row] = (await stack.deps.dataSource.query(`SELECT secret_hash FROM community_review_sessions WHERE id = $1`, [res.body.session_id])) as Array<{
        secret_hash: string;
      }>;
      expect(row.secret_hash).to.equal(createHash('sha256').update(res.body.session_secret).digest('hex'));
    });

    it('draws sample_count samples', async function () {
      expect((await consent({ consent: true, sample_count: 12 })).samples).to.have.length(12);
      expect((await consent({ consent: true, sample_count: 1 })).samples).to.have.length(1);
    });

    for (const [label, body, code] of [
      ['no consent', {}, 'consent_required'],
      ['consent false', { consent: false }, 'consent_required'],
      ['consent "true" (a string)', { consent: 'true' }, 'consent_required'],
      ['sample_count 0', { consent: true, sample_count: 0 }, 'validation_failed'],
      ['sample_count 13', { consent: true, sample_count: 13 }, 'validation_failed'],
      ['an unknown field', { consent: true, email: 'a@b.c' }, 'validation_failed'],
    ] as const) {
      it(`answers 422 ${code} for ${label}, and stores nothing`, async function () {
        const before = await sessions();
        const res = await stack.http.post('/api/community-review/sessions').send(body);
        expect(res.status).to.equal(422);
        expect(res.body.error.code).to.equal(code);
        expect(res.body.error.details.fields).to.be.an('array').that.is.not.empty;
        expect(await sessions()).to.equal(before);
      });
    }
  });

  async function sessions(): Promise<number> {
    const [row] = (await stack.deps.dataSource.query(`SELECT count(*)::int AS n FROM community_review_sessions`)) as Array<{ n: number }>;
    return row.n;
  }

  describe('GET /api/community-review/sessions/{session_id}', function () {
    it('shows the session without its secret', async function () {
      const made = await consent();
      const res = await stack.http.get(`/api/community-review/sessions/${made.session_id}`);
      expect(res.status).to.equal(200);
      expect(res.body.session_id).to.equal(made.session_id);
      expect(res.body).to.not.have.property('session_secret');
      expect(res.text).to.not.include(made.session_secret);
      expect(res.body.samples.map((s: Sample) => s.sample_id)).to.deep.equal(made.samples.map((s) => s.sample_id));
    });

    it('answers 404 for an unknown id and for one that is no UUID', async function () {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
        const res = await stack.http.get(`/api/community-review/sessions/${id}`);
        expect(res.status, id).to.equal(404);
        expect(res.body.error.code).to.equal('review_session_not_found');
      }
    });
  });

  describe('POST /api/community-review/sessions/{session_id}/responses', function () {
    it('answers 200, stores the ratings, and reveals the engine scores of the rated samples only', async function () {
      const made = await consent({ consent: true, sample_count: 3 });
      const [first, second, third] = made.samples.map((s) => s.sample_id);
      const res = await rate(made.session_id, made.session_secret, [
        { sample_id: first, ratings: { human_likeness: 4, empathy: 2 } },
        { sample_id: second, ratings: { formality: 5 } },
      ]);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.accepted).to.deep.equal([
        { sample_id: first, replaced: false },
        { sample_id: second, replaced: false },
      ]);
      const byId = Object.fromEntries((res.body.session.samples as Sample[]).map((s) => [s.sample_id, s]));
      expect(byId[first]).to.deep.include({ rated: true, ratings: { human_likeness: 4, empathy: 2 } });
      expect(byId[first].engine).to.have.keys('scorer_version', 'human_likeness', 'eq_score', 'passed', 'measures');
      expect(byId[second]).to.deep.include({ rated: true, ratings: { formality: 5 } });
      expect(byId[third]).to.include({ rated: false, ratings: null, engine: null });
      expect(res.body.session.progress).to.deep.equal({ samples: 3, rated: 2 });
      const view = await stack.http.get(`/api/community-review/sessions/${made.session_id}`);
      expect(view.body).to.deep.equal(res.body.session);
    });

    it('replaces an earlier rating of the same sample as a whole (idempotent for the summary)', async function () {
      const made = await consent({ consent: true, sample_count: 1 });
      const id = made.samples[0].sample_id;
      expect((await rate(made.session_id, made.session_secret, [{ sample_id: id, ratings: { human_likeness: 1, empathy: 5 } }])).status).to.equal(200);
      const again = await rate(made.session_id, made.session_secret, [{ sample_id: id, ratings: { human_likeness: 3 } }]);
      expect(again.status).to.equal(200);
      expect(again.body.accepted).to.deep.equal([{ sample_id: id, replaced: true }]);
      expect(again.body.session.samples[0].ratings).to.deep.equal({ human_likeness: 3 });
      const rows = (await stack.deps.dataSource.query(`SELECT dimension, rating FROM community_review_ratings WHERE session_id = $1`, [made.session_id])) as unknown[];
      expect(rows).to.deep.equal([{ dimension: 'human_likeness', rating: 3 }]);
    });

    it('answers 403 for a wrong secret and stores nothing', async function () {
      const made = await consent({ consent: true, sample_count: 1 });
      const other = await consent({ consent: true, sample_count: 1 });
      const res = await rate(made.session_id, other.session_secret, [{ sample_id: made.samples[0].sample_id, ratings: { human_likeness: 2 } }]);
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('review_secret_invalid');
      expect((await stack.http.get(`/api/community-review/sessions/${made.session_id}`)).body.progress.rated).to.equal(0);
    });

    it('answers 404 for an unknown session', async function () {
      const res = await rate('00000000-0000-4000-8000-000000000000', `crs_${randomBytes(32).toString('base64url')}`, [
        { sample_id: 'cr-01', ratings: { human_likeness: 2 } },
      ]);
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('review_session_not_found');
    });

    it('answers 422 for bad ratings, naming the field, and stores nothing', async function () {
      const made = await consent({ consent: true, sample_count: 2 });
      const [a, b] = made.samples.map((s) => s.sample_id);
      const notInSession = ['cr-01', 'cr-02', 'cr-03'].find((id) => id !== a && id !== b)!;
      const cases: Array<[string, Record<string, unknown>, string, string]> = [
        ['no secret', { responses: [{ sample_id: a, ratings: { human_likeness: 2 } }] }, 'validation_failed', '/session_secret'],
        ['no responses', { session_secret: made.session_secret, responses: [] }, 'validation_failed', '/responses'],
        ['a rating of 6', { session_secret: made.session_secret, responses: [{ sample_id: a, ratings: { human_likeness: 6 } }] }, 'validation_failed', '/responses/0/ratings/human_likeness'],
        ['a rating of 0', { session_secret: made.session_secret, responses: [{ sample_id: a, ratings: { empathy: 0 } }] }, 'validation_failed', '/responses/0/ratings/empathy'],
        ['a rating of 2.5', { session_secret: made.session_secret, responses: [{ sample_id: a, ratings: { empathy: 2.5 } }] }, 'validation_failed', '/responses/0/ratings/empathy'],
        ['an unknown dimension', { session_secret: made.session_secret, responses: [{ sample_id: a, ratings: { timing: 3 } }] }, 'validation_failed', '/responses/0/ratings/timing'],
        ['no dimension rated', { session_secret: made.session_secret, responses: [{ sample_id: a, ratings: {} }] }, 'validation_failed', '/responses/0/ratings'],
        ['an unknown sample', { session_secret: made.session_secret, responses: [{ sample_id: 'cr-99', ratings: { empathy: 3 } }] }, 'validation_failed', '/responses/0/sample_id'],
        ['a too long comment', { session_secret: made.session_secret, responses: [{ sample_id: a, ratings: { empathy: 3 }, comment: 'x'.repeat(1001) }] }, 'validation_failed', '/responses/0/comment'],
        [
          'a sample of another session',
          { session_secret: made.session_secret, responses: [{ sample_id: notInSession, ratings: { empathy: 3 } }] },
          'invalid_sample',
          '/responses/0/sample_id',
        ],
        [
          'one sample twice',
          { session_secret: made.session_secret, responses: [{ sample_id: a, ratings: { empathy: 3 } }, { sample_id: a, ratings: { empathy: 4 } }] },
          'invalid_sample',
          '/responses/1/sample_id',
        ],
      ];
      for (const [label, body, code, path] of cases) {
        const res = await stack.http.post(`/api/community-review/sessions/${made.session_id}/responses`).send(body);
        expect(res.status, label).to.equal(422);
        expect(res.body.error.code, label).to.equal(code);
        expect(res.body.error.details.fields.map((f: { path: string }) => f.path), label).to.include(path);
      }
      expect((await stack.http.get(`/api/community-review/sessions/${made.session_id}`)).body.progress.rated).to.equal(0);
    });
  });

  describe('GET /api/community-review/sessions', function () {
    it('lists recent sessions newest first with counts only', async function () {
      const made = await consent({ consent: true, sample_count: 2 });
      await rate(made.session_id, made.session_secret, [{ sample_id: made.samples[0].sample_id, ratings: { directness: 4 }, comment: 'listed' }]);
      const res = await stack.http.get('/api/community-review/sessions?limit=3');
      expect(res.status).to.equal(200);
      expect(res.body.limit).to.equal(3);
      expect(res.body.sessions).to.have.length(3);
      expect(res.body.sessions[0]).to.have.keys('session_id', 'created_at', 'samples', 'rated_samples', 'last_rated_at');
      expect(res.body.sessions[0]).to.include({ session_id: made.session_id, samples: 2, rated_samples: 1 });
      expect(res.body.sessions[0].last_rated_at).to.be.a('string');
      expect(res.text).to.not.include(made.session_secret);
      expect((await stack.http.get('/api/community-review/sessions?limit=0')).status).to.equal(422);
      expect((await stack.http.get('/api/community-review/sessions?limit=x')).status).to.equal(422);
    });
  });

  describe('GET /api/community-review/summary', function () {
    before(async function () {
      await stack.truncate();
    });

    it('gives counts and null agreement while there are too few ratings', async function () {
      const res = await stack.http.get('/api/community-review/summary');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ sessions: 0, reviewed_sessions: 0, rated_samples: 0, min_ratings: 5 });
      expect(res.body.dimensions.map((d: { dimension: string }) => d.dimension)).to.deep.equal([...DIMENSIONS]);
      for (const d of res.body.dimensions) expect(d).to.include({ ratings: 0, spearman: null, mean_absolute_difference: null, mean_rating: null });
    });

    it('computes Spearman and the mean absolute difference from the ratings posted, counting a re-rating once', async function () {
      const a = await consent({ consent: true, sample_count: 12 });
      const b = await consent({ consent: true, sample_count: 4 });
      await consent({ consent: true, sample_count: 1 }); // consented, never rated
      // Session a: every sample on human likeness, ratings 1..5 cycling; empathy on three samples only.
      const aRatings = a.samples.map((s, i) => ({ sample_id: s.sample_id, ratings: { human_likeness: (i % 5) + 1, ...(i < 3 ? { empathy: 5 - i } : {}) } }));
      // First a rating that is then replaced: only the second one may count.
      expect((await rate(a.session_id, a.session_secret, [{ sample_id: a.samples[0].sample_id, ratings: { human_likeness: 5, formality: 1 } }])).status).to.equal(200);
      const ra = await rate(a.session_id, a.session_secret, aRatings);
      expect(ra.status).to.equal(200);
      const bRatings = b.samples.map((s, i) => ({ sample_id: s.sample_id, ratings: { human_likeness: 5 - i } }));
      const rb = await rate(b.session_id, b.session_secret, bRatings);
      expect(rb.status).to.equal(200);

      // The engine's values, as revealed to the reviewers.
      const engines = new Map<string, Engine>();
      for (const s of [...ra.body.session.samples, ...rb.body.session.samples] as Sample[]) engines.set(s.sample_id, s.engine!);
      const pairs = [...aRatings, ...bRatings].flatMap((r) =>
        Object.entries(r.ratings).map(([dimension, rating]) => ({ dimension, rv: (rating - 1) / 4, ev: engineValue(engines.get(r.sample_id)!, dimension) })),
      );
      const hl = pairs.filter((p) => p.dimension === 'human_likeness');
      expect(hl).to.have.length(16);
      const expectedSpearman = round4(pearson(ranks(hl.map((p) => p.rv)), ranks(hl.map((p) => p.ev))));
      const expectedMad = round4(hl.reduce((sum, p) => sum + Math.abs(p.rv - p.ev), 0) / hl.length);

      const res = await stack.http.get('/api/community-review/summary');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ sessions: 3, reviewed_sessions: 2, rated_samples: 16 });
      const dims = Object.fromEntries(res.body.dimensions.map((d: { dimension: string }) => [d.dimension, d]));
      expect(dims.human_likeness).to.deep.include({ engine_field: 'human_likeness / 100', ratings: 16, samples: 12 });
      // PostgreSQL sums in another order than this test: the two roundings to four places may
      // differ by one unit in the last place, no more.
      const figures = {
        spearman: expectedSpearman,
        mean_absolute_difference: expectedMad,
        mean_rating: round4(hl.reduce((s, p) => s + p.rv, 0) / hl.length),
        mean_engine: round4(hl.reduce((s, p) => s + p.ev, 0) / hl.length),
      };
      for (const [name, expected] of Object.entries(figures)) expect(dims.human_likeness[name], name).to.be.closeTo(expected, 0.00011);
      expect(Number.isFinite(expectedSpearman)).to.equal(true);
      // Three empathy ratings: counted, but too few for agreement figures.
      expect(dims.empathy).to.deep.include({ ratings: 3, samples: 3, spearman: null, mean_absolute_difference: null });
      expect(dims.empathy.mean_rating).to.equal(round4((1 + 0.75 + 0.5) / 3));
      // The replaced formality rating is gone.
      expect(dims.formality).to.deep.include({ ratings: 0, mean_rating: null });
    });
  });

  describe('privacy', function () {
    it('never returns a reviewer comment or a session secret from any public endpoint', async function () {
      const marker = `private-note-${randomBytes(8).toString('hex')}`;
      const made = await consent({ consent: true, sample_count: 2 });
      const posted = await rate(made.session_id, made.session_secret, [{ sample_id: made.samples[0].sample_id, ratings: { human_likeness: 3 }, comment: marker }]);
      expect(posted.status).to.equal(200);
      // The comment was stored (so a leak would be possible), for the operators.
      const [row] = (await stack.deps.dataSource.query(`SELECT comment FROM community_review_responses WHERE session_id = $1`, [made.session_id])) as Array<{
        comment: string;
      }>;
      expect(row.comment).to.equal(marker);
      const texts = [
        posted.text,
        (await stack.http.get(`/api/community-review/sessions/${made.session_id}`)).text,
        (await stack.http.get('/api/community-review/sessions')).text,
        (await stack.http.get('/api/community-review/sessions?limit=100')).text,
        (await stack.http.get('/api/community-review/summary')).text,
      ];
      expect(texts.filter((t) => t.length > 0)).to.have.length(5);
      for (const text of texts) {
        expect(text).to.not.include(marker);
        expect(text).to.not.include(made.session_secret);
      }
    });
  });
});

describe('community review rate limits', function () {
  this.timeout(60_000);
  let stack: TestStack;

  before(async function () {
    stack = await startTestStack('community-review-limits', {
      worker: false,
      env: { COMMUNITY_REVIEW_SESSIONS_PER_HOUR: '2', COMMUNITY_REVIEW_RESPONSES_PER_HOUR: '2' },
    });
    await stack.truncate();
  });
  after(async function () {
    await stack?.close();
  });

  it('answers 429 with Retry-After beyond the hourly sessions of one caller, and not for another caller', async function () {
    const from = (ip: string) => stack.http.post('/api/community-review/sessions').set('X-Forwarded-For', ip).send({ consent: true });
    expect((await from('203.0.113.7')).status).to.equal(201);
    expect((await from('203.0.113.7')).status).to.equal(201);
    const third = await from('203.0.113.7');
    expect(third.status).to.equal(429);
    expect(third.body.error.code).to.equal('review_rate_limited');
    expect(third.body.error.details).to.include({ kind: 'sessions', limit: 2 });
    expect(Number(third.headers['retry-after'])).to.be.within(1, 3600);
    const [count] = (await stack.deps.dataSource.query(`SELECT count(*)::int AS n FROM community_review_sessions`)) as Array<{ n: number }>;
    expect(count.n).to.equal(2);
    expect((await from('198.51.100.9')).status).to.equal(201);
  });

  it('answers 429 beyond the hourly rating submissions of one caller', async function () {
    const made = await stack.http.post('/api/community-review/sessions').set('X-Forwarded-For', '192.0.2.44').send({ consent: true, sample_count: 3 });
    expect(made.status).to.equal(201);
    const post = (i: number) =>
      stack.http
        .post(`/api/community-review/sessions/${made.body.session_id}/responses`)
        .set('X-Forwarded-For', '192.0.2.44')
        .send({ session_secret: made.body.session_secret, responses: [{ sample_id: made.body.samples[i].sample_id, ratings: { empathy: 3 } }] });
    expect((await post(0)).status).to.equal(200);
    expect((await post(1)).status).to.equal(200);
    const third = await post(2);
    expect(third.status).to.equal(429);
    expect(third.body.error.details).to.include({ kind: 'responses', limit: 2 });
    expect((await stack.http.get(`/api/community-review/sessions/${made.body.session_id}`)).body.progress.rated).to.equal(2);
  });
});
