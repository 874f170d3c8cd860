import { createHash, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { mintCredential } from '../../../../shared/operators/credentials';
import { createLogger } from '../../../../shared/logger';
import { ATTENTION_CHECKS } from '../../../../api/aei-programs/attention-checks';
import { startTestStack, type TestStack } from '../../../helpers/stack';

const TOKEN = /^hlw_[A-Za-z0-9_-]{43}$/;
const HEADER = 'X-AEI-WORDING-TOKEN';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

interface Item {
  item_id: string;
  text: string;
}

// Consented text of the seeded sources; each distinct, so a scan finds exactly its own rows.
const FREE_TEXTS = [
  'honestly no idea, maybe try turning it off and on again?',
  'Great question! Here are five steps you can take to improve your workflow.',
  'ugh sorry, running late, save me a seat',
  'I am not sure that is right, but it might be the cache.',
];
const SHARED_TEXT = 'Certainly: the table for two is held at half past seven, near the window.';
const CHECK_TEXTS = new Set(ATTENTION_CHECKS.map((c) => c.text));

describe('wording review', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let admin: string;
  let operator: string;
  const lines: string[] = [];
  let n = 0;

  before(async function () {
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    stack = await startTestStack('wording-review', { worker: false, logger: createLogger({ log: { level: 'trace' } }, 'test', sink) });
  });
  beforeEach(async function () {
    await stack.truncate();
    admin = (await mintCredential(stack.deps.dataSource, 'admin', 3_600)).token;
    operator = (await mintCredential(stack.deps.dataSource, 'operator', 3_600)).token;
    await seedSources();
  });
  after(async function () {
    try {
      await stack?.truncate();
    } finally {
      await stack?.close();
    }
  });

  async function seedSources(): Promise<void> {
    const ds = stack.deps.dataSource;
    await ds.query(`INSERT INTO free_callers (caller_hash, scores_used, reservations) VALUES ($1, 1, 1)`, [sha256('caller')]);
    for (const text of FREE_TEXTS) {
      await ds.query(`INSERT INTO free_corpus_entries (job_id, caller_hash, text) VALUES ($1, $2, $3)`, [randomUUID(), sha256('caller'), text]);
    }
    await ds.query(`INSERT INTO calibration_shares (result_id, profile, eq_score, text, scorer_version) VALUES ($1, 'formal-concierge', 90, $2, 'v')`, [
      randomUUID(),
      SHARED_TEXT,
    ]);
  }

  const asAdmin = (path: string, token = admin) => {
    n += 1;
    return stack.http.get(path).set('X-Forwarded-For', `10.80.0.${n % 250}`).set('Authorization', `Bearer ${token}`);
  };

  async function consent(): Promise<{ token: string; next_items: Item[]; session: Record<string, unknown> }> {
    const version = (await stack.http.get('/api/aei/wording-review/consent')).body.version as string;
    const res = await stack.http.post('/api/aei/wording-review/sessions').send({ consent: true, consent_version: version });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body;
  }

  const rate = (token: string, itemId: string, ratings: Record<string, number>) =>
    stack.http.post('/api/aei/wording-review/ratings').set(HEADER, token).send({ item_id: itemId, ratings });

  /** Every content item id with its text (the pool), by asking one throwaway session. */
  async function contentItems(): Promise<Item[]> {
    await consent();
    const rows = (await stack.deps.dataSource.query(
      `SELECT i.id::text AS item_id, coalesce(f.text, c.text) AS text FROM wording_review_items i
         LEFT JOIN free_corpus_entries f ON f.id = i.free_corpus_entry_id LEFT JOIN calibration_shares c ON c.id = i.calibration_share_id
        WHERE i.attention_check IS NULL ORDER BY 2`,
    )) as Item[];
    expect(rows).to.have.length(FREE_TEXTS.length + 1);
    return rows;
  }

  async function checkItem(key: string): Promise<string> {
    const [row] = (await stack.deps.dataSource.query(`SELECT id::text AS id FROM wording_review_items WHERE attention_check = $1`, [key])) as Array<{ id: string }>;
    return row.id;
  }

  /** Rows of every table of the database whose JSON form contains `needle`. */
  async function tablesContaining(needle: string): Promise<string[]> {
    const tables = (await stack.deps.dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    )) as Array<{ table_name: string }>;
    expect(tables.length).to.be.greaterThan(30);
    const hits: string[] = [];
    for (const { table_name: t } of tables) {
      const [row] = (await stack.deps.dataSource.query(`SELECT count(*)::int AS n FROM "${t}" x WHERE strpos(row_to_json(x)::text, $1) > 0`, [needle])) as Array<{ n: number }>;
      if (row.n > 0) hits.push(t);
    }
    return hits;
  }

  describe('consent', function () {
    it('serves a versioned consent text with the four scales', async function () {
      const res = await stack.http.get('/api/aei/wording-review/consent');
      expect(res.status).to.equal(200);
      expect(res.body.version).to.match(/^wording-review-/);
      expect(res.body.text).to.contain('delete');
      expect(res.body.scales.map((s: { id: string }) => s.id)).to.deep.equal(['human', 'warm', 'direct', 'hesitant']);
    });

    it('refuses a session without consent or with another version, storing nothing', async function () {
      const none = await stack.http.post('/api/aei/wording-review/sessions').send({ consent_version: 'wording-review-2026-01' });
      expect(none.status).to.equal(422);
      expect(none.body.error.code).to.equal('consent_required');
      const old = await stack.http.post('/api/aei/wording-review/sessions').send({ consent: true, consent_version: 'wording-review-2020-01' });
      expect(old.status).to.equal(422);
      expect(old.body.error.code).to.equal('consent_version_not_current');
      const [row] = await stack.deps.dataSource.query(`SELECT count(*)::int AS n FROM wording_review_sessions`);
      expect(row.n).to.equal(0);
    });

    it('answers 201 with the token once, stores only its hash, and shows consented text only without identity', async function () {
      const version = (await stack.http.get('/api/aei/wording-review/consent')).body.version as string;
      const res = await stack.http.post('/api/aei/wording-review/sessions').send({ consent: true, consent_version: version });
      expect(res.status).to.equal(201);
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(res.body.token).to.match(TOKEN);
      expect(res.body.session).to.include({ consent_version: version, rated: 0, counts_for_calibration: true });
      const items = res.body.next_items as Item[];
      expect(items).to.have.length(5);
      for (const item of items) {
        expect(Object.keys(item).sort()).to.deep.equal(['item_id', 'text']);
        expect([...FREE_TEXTS, SHARED_TEXT].includes(item.text) || CHECK_TEXTS.has(item.text), item.text).to.equal(true);
      }
      expect(items.filter((i) => CHECK_TEXTS.has(i.text))).to.have.length(1);
      const [row] = await stack.deps.dataSource.query(`SELECT token_hash FROM wording_review_sessions`);
      expect(row.token_hash).to.equal(sha256(res.body.token));
      expect(await tablesContaining(res.body.token)).to.deep.equal([]);
      expect(await tablesContaining(res.body.token.slice(4))).to.deep.equal([]);
      const again = await stack.http.get('/api/aei/wording-review/session').set(HEADER, res.body.token);
      expect(again.status).to.equal(200);
      expect(JSON.stringify(again.body)).not.to.contain(res.body.token);
    });
  });

  describe('tokens', function () {
    it('answers 401 for a missing, malformed, unknown or deleted token on every rater path, never 404 or 500', async function () {
      const { token, next_items: items } = await consent();
      const deleted = await stack.http.delete('/api/aei/wording-review/session').set(HEADER, token);
      expect(deleted.status).to.equal(200);
      const unknown = `hlw_${'A'.repeat(43)}`;
      const calls = [
        (h?: string) => (h === undefined ? stack.http.get('/api/aei/wording-review/session') : stack.http.get('/api/aei/wording-review/session').set(HEADER, h)),
        (h?: string) => (h === undefined ? stack.http.delete('/api/aei/wording-review/session') : stack.http.delete('/api/aei/wording-review/session').set(HEADER, h)),
        (h?: string) => {
          const req = stack.http.post('/api/aei/wording-review/ratings');
          return (h === undefined ? req : req.set(HEADER, h)).send({ item_id: items[0].item_id, ratings: { human: 3, warm: 3, direct: 3, hesitant: 3 } });
        },
      ];
      for (const call of calls) {
        const missing = await call();
        expect(missing.status).to.equal(401);
        expect(missing.body.error.code).to.equal('program_token_required');
        for (const value of ['not-a-token', 'hlp_' + 'A'.repeat(43), unknown, token]) {
          const res = await call(value);
          expect(res.status, value).to.equal(401);
          expect(res.body.error.code).to.equal('program_token_invalid');
        }
      }
    });
  });

  describe('ratings', function () {
    it('records a rating once and refuses a second one of the same item with 409', async function () {
      const { token, next_items: items } = await consent();
      const item = items.find((i) => !CHECK_TEXTS.has(i.text))!;
      const first = await rate(token, item.item_id, { human: 4, warm: 2, direct: 5, hesitant: 1 });
      expect(first.status, JSON.stringify(first.body)).to.equal(201);
      expect(first.body.next_items.map((i: Item) => i.item_id)).not.to.include(item.item_id);
      const second = await rate(token, item.item_id, { human: 1, warm: 1, direct: 1, hesitant: 1 });
      expect(second.status).to.equal(409);
      expect(second.body.error.code).to.equal('already_rated');
      const rows = await stack.deps.dataSource.query(`SELECT human, warm, direct, hesitant FROM wording_review_ratings`);
      expect(rows).to.deep.equal([{ human: 4, warm: 2, direct: 5, hesitant: 1 }]);
      const session = await stack.http.get('/api/aei/wording-review/session').set(HEADER, token);
      expect(session.body.session.rated).to.equal(1);
    });

    it('refuses an unknown item and ratings off the scale', async function () {
      const { token } = await consent();
      const unknown = await rate(token, randomUUID(), { human: 3, warm: 3, direct: 3, hesitant: 3 });
      expect(unknown.status).to.equal(422);
      expect(unknown.body.error.code).to.equal('item_unknown');
      const items = await contentItems();
      const off = await rate(token, items[0].item_id, { human: 6, warm: 3, direct: 3, hesitant: 3 });
      expect(off.status).to.equal(422);
      const partial = await rate(token, items[0].item_id, { human: 3, warm: 3, direct: 3 });
      expect(partial.status).to.equal(422);
    });
  });

  describe('calibration report', function () {
    // Five raters who agree fully; their ratings follow the engine's order on every scale.
    async function agreeingRaters(count: number, items: Item[]): Promise<string[]> {
      const engine = (await stack.deps.dataSource.query(
        `SELECT id::text AS id, engine_human, engine_warm, engine_direct, engine_hesitant FROM wording_review_items WHERE attention_check IS NULL`,
      )) as Array<Record<string, number | string>>;
      // Dense ranks of the engine's values: tied values get one rating, so the orders match exactly.
      const rank = (scale: string) => {
        const value = (id: string) => Number(engine.find((r) => r.id === id)![`engine_${scale}`]);
        const distinct = [...new Set(engine.map((r) => Number(r[`engine_${scale}`])))].sort((a, b) => a - b);
        return (id: string) => 1 + distinct.indexOf(value(id));
      };
      const ranks = { human: rank('human'), warm: rank('warm'), direct: rank('direct'), hesitant: rank('hesitant') };
      const tokens: string[] = [];
      for (let r = 0; r < count; r++) {
        const { token } = await consent();
        tokens.push(token);
        for (const item of items) {
          const ratings = Object.fromEntries(Object.entries(ranks).map(([s, f]) => [s, f(item.item_id)]));
          expect((await rate(token, item.item_id, ratings)).status).to.equal(201);
        }
      }
      return tokens;
    }

    it('is admin-only', async function () {
      expect((await stack.http.get('/api/admin/aei/wording-review').set('X-Forwarded-For', '10.81.0.1')).status).to.equal(401);
      expect((await asAdmin('/api/admin/aei/wording-review', operator)).status).to.equal(403);
    });

    it('gives alpha 1 and Spearman 1 when raters agree and follow the engine, and counts the scale', async function () {
      const items = await contentItems();
      await agreeingRaters(5, items);
      const res = await asAdmin('/api/admin/aei/wording-review');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ raters: 5, items_rated: 5, excluded_sessions: 0, min_alpha: 0.667, min_raters_per_item: 3 });
      expect(res.body.dimensions).to.have.length(4);
      for (const d of res.body.dimensions) {
        expect(d.ratings).to.equal(25);
        expect(d.items).to.equal(5);
        expect(d.spearman).to.be.closeTo(1, 1e-9);
        expect(d.alpha).to.be.closeTo(1, 1e-9);
        expect(d.counts).to.equal(true);
      }
      expect(JSON.stringify(res.body)).not.to.contain(FREE_TEXTS[0]);
    });

    it('does not count a scale where raters disagree (alpha below 0.667)', async function () {
      const items = await contentItems();
      // Each rater rates human in a different order; the other scales agree.
      for (let r = 0; r < 5; r++) {
        const { token } = await consent();
        for (const [i, item] of items.entries()) {
          expect((await rate(token, item.item_id, { human: ((i + r * 2) % 5) + 1, warm: i + 1, direct: i + 1, hesitant: i + 1 })).status).to.equal(201);
        }
      }
      const res = await asAdmin('/api/admin/aei/wording-review');
      const human = res.body.dimensions.find((d: { dimension: string }) => d.dimension === 'human');
      expect(human.alpha).to.be.below(0.667);
      expect(human.counts).to.equal(false);
      const warm = res.body.dimensions.find((d: { dimension: string }) => d.dimension === 'warm');
      expect(warm.counts).to.equal(true);
    });

    it('leaves out a rater who failed two attention checks, and nothing else changes for them', async function () {
      const items = await contentItems();
      await agreeingRaters(5, items);
      const { token } = await consent();
      // Fails ac-1 and ac-2 (answers the opposite of what they ask), then rates content against the others.
      expect((await rate(token, await checkItem('ac-1'), { human: 5, warm: 1, direct: 3, hesitant: 3 })).status).to.equal(201);
      let session = await stack.http.get('/api/aei/wording-review/session').set(HEADER, token);
      expect(session.body.session.counts_for_calibration).to.equal(true);
      expect((await rate(token, await checkItem('ac-2'), { human: 3, warm: 3, direct: 1, hesitant: 5 })).status).to.equal(201);
      for (const [i, item] of items.entries()) expect((await rate(token, item.item_id, { human: 5 - i, warm: 5 - i, direct: 5 - i, hesitant: 5 - i })).status).to.equal(201);
      session = await stack.http.get('/api/aei/wording-review/session').set(HEADER, token);
      expect(session.status).to.equal(200);
      expect(session.body.session.counts_for_calibration).to.equal(false);
      const res = await asAdmin('/api/admin/aei/wording-review');
      expect(res.body).to.include({ raters: 5, excluded_sessions: 1 });
      for (const d of res.body.dimensions) expect(d.alpha).to.be.closeTo(1, 1e-9);
    });

    it('passes a rater who answers the checks as they ask', async function () {
      const { token } = await consent();
      for (const check of ATTENTION_CHECKS) {
        const ratings = { human: 3, warm: 3, direct: 3, hesitant: 3, ...check.expect };
        expect((await rate(token, await checkItem(check.key), ratings)).status).to.equal(201);
      }
      const session = await stack.http.get('/api/aei/wording-review/session').set(HEADER, token);
      expect(session.body.session.counts_for_calibration).to.equal(true);
    });

    it('drops the ratings of text whose consented source is deleted', async function () {
      const items = await contentItems();
      await agreeingRaters(5, items);
      await stack.deps.dataSource.query(`DELETE FROM free_corpus_entries WHERE text = $1`, [FREE_TEXTS[0]]);
      const res = await asAdmin('/api/admin/aei/wording-review');
      expect(res.body.items_rated).to.equal(4);
      expect(res.body.dimensions[0].ratings).to.equal(20);
    });

    it('publishes the table with every figure withheld below five raters, and shown from five', async function () {
      const items = await contentItems();
      const tokens = await agreeingRaters(5, items);
      const shown = await stack.http.get('/api/validation/human-agreement');
      expect(shown.status).to.equal(200);
      expect(shown.body).to.include({ raters: 5, suppressed: false, min_people: 5 });
      expect(shown.body.dimensions[0].alpha).to.be.closeTo(1, 1e-9);
      for (const t of tokens) expect(JSON.stringify(shown.body)).not.to.contain(t);
      expect(JSON.stringify(shown.body)).not.to.match(/[0-9a-f]{8}-[0-9a-f]{4}-/);
      // One rater withdraws: four are left, and nothing is published.
      const withdrawn = await stack.http.delete('/api/aei/wording-review/session').set(HEADER, tokens[0]);
      expect(withdrawn.body).to.deep.equal({ deleted: { session: 1, ratings: 5, token: true } });
      const hidden = await stack.http.get('/api/validation/human-agreement');
      expect(hidden.body).to.include({ raters: null, items_rated: null, suppressed: true });
      for (const d of hidden.body.dimensions) expect(d).to.include({ alpha: null, spearman: null, ratings: null, raters: null, counts: false });
      const report = await asAdmin('/api/admin/aei/wording-review');
      expect(report.body.raters).to.equal(4);
    });
  });

  describe('DELETE /api/aei/wording-review/session', function () {
    it('deletes every rating and the token hash: no table holds them afterwards, and no log line holds the token', async function () {
      const { token, next_items: items } = await consent();
      let rated = 0;
      for (const item of items) {
        expect((await rate(token, item.item_id, { human: 2, warm: 3, direct: 4, hesitant: 5 })).status).to.equal(201);
        rated += 1;
      }
      const hash = sha256(token);
      const [session] = await stack.deps.dataSource.query(`SELECT id::text AS id FROM wording_review_sessions WHERE token_hash = $1`, [hash]);
      expect(await tablesContaining(hash)).to.deep.equal(['wording_review_sessions']);
      const res = await stack.http.delete('/api/aei/wording-review/session').set(HEADER, token);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ deleted: { session: 1, ratings: rated, token: true } });
      expect(await tablesContaining(hash)).to.deep.equal([]);
      expect(await tablesContaining(session.id)).to.deep.equal([]);
      expect(lines.length).to.be.greaterThan(0);
      const logged = lines.join('\n');
      expect(logged).not.to.contain(token.slice(4));
      expect(logged).not.to.contain(hash);
      expect(logged).not.to.contain(FREE_TEXTS[1]);
    });
  });
});
