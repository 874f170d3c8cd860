import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import supertest from 'supertest';
import { createApp } from '../../../../api/app';
import { hashBundleToken, newBundleToken } from '../../../../api/payments/bundle-credit/bundle-token';
import { testConfig } from '../../../helpers/config';
import { startChatProvider, type LocalChatProvider } from '../../../helpers/chat-completions';
import { startTestStack, type TestStack } from '../../../helpers/stack';
import { until } from '../../../helpers/until';
import { createEmbedSweepProcessor } from '../../../../workers/maintenance/embed-sweep.processor';

const PATH = '/api/embed/check';

// Emoji outside the BMP (2 UTF-16 units each) and a combining accent (1 unit) before the marked words.
const EMOJI_DRAFT = 'Cafe\u0301 👍🏽 — Great question! I hope this helps!';

describe('POST /api/embed/check', function () {
  this.timeout(40_000);
  let stack: TestStack;
  let chat: LocalChatProvider;
  const logs = new PassThrough();
  let logText = '';
  logs.on('data', (chunk: Buffer) => {
    logText += chunk.toString('utf8');
  });

  before(async function () {
    chat = await startChatProvider();
    stack = await startTestStack('embed-check', {
      logs,
      env: { LOG_LEVEL: 'debug', LLM_BASE_URL: chat.url, LLM_API_KEY: 'sk-local-test', LLM_MODEL: 'local-model', EMBED_MAX_IN_FLIGHT: '1' },
    });
  });
  after(async function () {
    await stack?.close();
    await chat?.close();
  });
  beforeEach(async function () {
    await stack.truncate();
    chat.mode = 'ok';
    chat.content = '{"issues":[]}';
    chat.calls.length = 0;
  });

  const query = (sql: string, params: unknown[] = []) => stack.deps.dataSource.query(sql, params) as Promise<Array<Record<string, unknown>>>;

  async function bundle(credits: number): Promise<{ id: string; token: string }> {
    const token = newBundleToken();
    const [auth] = await query(
      `INSERT INTO payment_authorizations (rail, network, asset, payer, nonce, x402_version, resource, product, tier, amount, request_hash, result_id, payment)
       VALUES ('exact-evm', 'eip155:8453', '0xasset', '0xpayer', $1, 2, '/api/bundle', 'bundle', 'bundle', 42500000, $2, $3, '{}') RETURNING id`,
      [`0x${randomBytes(32).toString('hex')}`, randomBytes(32).toString('hex'), randomUUID()],
    );
    const [row] = await query(
      `INSERT INTO bundles (wallet, plan, source, credits_total, credits_remaining, authorization_id, token_hash)
       VALUES ('0xpayer', 'bundle', 'purchase', 1000, $1, $2, $3) RETURNING id`,
      [credits, auth.id, hashBundleToken(token)],
    );
    return { id: String(row.id), token };
  }

  async function creditsOf(id: string): Promise<number> {
    const [row] = await query(`SELECT credits_remaining FROM bundles WHERE id = $1`, [id]);
    return Number(row.credits_remaining);
  }

  const newKey = (at = Date.now()) => `embed-${at}-${randomBytes(9).toString('base64url')}`;

  function check(token: string, key: string | undefined, body: Record<string, unknown>, http = stack.http) {
    const req = http.post(PATH).set('X-BUNDLE-TOKEN', token);
    if (key !== undefined) req.set('Idempotency-Key', key);
    return req.send(body);
  }

  describe('billing', function () {
    it('takes one credit for a new key and answers codes with UTF-16 offsets, severity and fix', async function () {
      const b = await bundle(10);
      const res = await check(b.token, newKey(), { draft: EMOJI_DRAFT }).expect(200);
      expect(res.body).to.include({ mode: 'structural', evaluator: 'structural-1', offset_unit: 'utf16_code_unit', draft_length: EMOJI_DRAFT.length });
      expect(res.body.billing).to.deep.equal({ credits_spent: 1, credits_remaining: 9, replayed: false });
      expect(await creditsOf(b.id)).to.equal(9);
      const issues = res.body.issues as Array<{ code: string; start: number; end: number; severity: string; fix: string }>;
      const boilerplate = issues.filter((i) => i.code === 'assistant-boilerplate');
      expect(boilerplate.map((i) => EMOJI_DRAFT.slice(i.start, i.end))).to.deep.equal(['Great question', 'I hope this helps']);
      // 4 letters, the combining mark (1 unit), a space, the thumbs-up with its skin tone (2 + 2 units), a space, the dash, a
      // space: 13 UTF-16 units (11 code points) before the marked words.
      expect(boilerplate[0].start).to.equal(EMOJI_DRAFT.indexOf('Great'));
      expect(boilerplate[0].start).to.equal(13);
      expect(boilerplate[0]).to.include({ severity: 'high' });
      expect(boilerplate[0].fix).to.be.a('string').and.not.include('Great');
      expect(JSON.stringify(res.body)).to.not.include('Great question');
    });

    it('replays the stored answer free with the same key and identical inputs', async function () {
      const b = await bundle(10);
      const key = newKey();
      const first = await check(b.token, key, { draft: EMOJI_DRAFT }).expect(200);
      const again = await check(b.token, key, { draft: EMOJI_DRAFT, mode: 'structural' }).expect(200);
      expect(again.headers['x-payment-replayed']).to.equal('true');
      expect(again.body.check_id).to.equal(first.body.check_id);
      expect(again.body.issues).to.deep.equal(first.body.issues);
      expect(again.body.billing).to.deep.equal({ credits_spent: 0, replayed: true });
      expect(await creditsOf(b.id)).to.equal(9);
    });

    it('refuses the same key with changed inputs as a conflict, uncharged', async function () {
      const b = await bundle(10);
      const key = newKey();
      await check(b.token, key, { draft: EMOJI_DRAFT }).expect(200);
      const edited = await check(b.token, key, { draft: `${EMOJI_DRAFT}!` }).expect(409);
      expect(edited.body.error.code).to.equal('idempotency_conflict');
      const otherMode = await check(b.token, key, { draft: EMOJI_DRAFT, mode: 'contextual', context: { situation: 'A refund request.' } }).expect(409);
      expect(otherMode.body.error.code).to.equal('idempotency_conflict');
      expect(await creditsOf(b.id)).to.equal(9);
      expect(chat.calls).to.have.length(0);
    });

    it('takes one credit and makes at most one provider call for 20 parallel identical requests', async function () {
      const b = await bundle(10);
      const key = newKey();
      chat.mode = 'gate';
      const body = { draft: 'Thanks for waiting. I checked your order and it ships Monday.', mode: 'contextual', context: { situation: 'A customer asks where their order is.' } };
      const pending = Array.from({ length: 20 }, () => check(b.token, key, body).then((r) => r));
      await until(() => chat.calls.length === 1, 10_000, 'the provider call');
      chat.release();
      const answers = await Promise.all(pending);
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 200).length, statuses.join(',')).to.be.at.least(1);
      expect(statuses.every((s) => s === 200 || s === 409), statuses.join(',')).to.equal(true);
      for (const r of answers.filter((a) => a.status === 409)) {
        expect(r.body.error.code).to.equal('idempotency_key_in_progress');
        expect(r.headers['retry-after']).to.equal('1');
      }
      expect(answers.filter((r) => r.status === 200 && r.body.billing.credits_spent === 1)).to.have.length(1);
      expect(chat.calls).to.have.length(1);
      expect(await creditsOf(b.id)).to.equal(9);
      // A later replay still evaluates nothing.
      await check(b.token, key, body).expect(200);
      expect(chat.calls).to.have.length(1);
    });

    it('answers 429 paid_capacity_busy with Retry-After and no charge, then the identical retry succeeds once', async function () {
      const b = await bundle(10);
      chat.mode = 'gate';
      const holding = check(b.token, newKey(), { draft: 'Sure, I can move the call to Friday.', mode: 'contextual', context: { situation: 'Rescheduling a call.' } }).then((r) => r);
      await until(() => chat.calls.length === 1, 10_000, 'the held provider call');
      const key = newKey();
      const body = { draft: EMOJI_DRAFT };
      const busy = await check(b.token, key, body).expect(429);
      expect(busy.body.error.code).to.equal('paid_capacity_busy');
      expect(busy.headers['retry-after']).to.equal('1');
      expect(await creditsOf(b.id)).to.equal(10);
      chat.release();
      expect((await holding).status).to.equal(200);
      expect(await creditsOf(b.id)).to.equal(9);
      const retried = await check(b.token, key, body).expect(200);
      expect(retried.body.billing.credits_spent).to.equal(1);
      expect(await creditsOf(b.id)).to.equal(8);
      const replay = await check(b.token, key, body).expect(200);
      expect(replay.body.billing.credits_spent).to.equal(0);
      expect(await creditsOf(b.id)).to.equal(8);
    });

    it('refuses a low balance before any work, uncharged', async function () {
      const b = await bundle(0);
      const res = await check(b.token, newKey(), { draft: 'Hi there', mode: 'contextual', context: { situation: 'Greeting.' } }).expect(403);
      expect(res.body.error.code).to.equal('bundle_exhausted');
      expect(chat.calls).to.have.length(0);
      expect(await creditsOf(b.id)).to.equal(0);
      expect((await query(`SELECT count(*)::int AS n FROM embed_checks`))[0].n).to.equal(0);
    });

    it('refuses expired, future and malformed keys, uncharged', async function () {
      const b = await bundle(10);
      const day = 86_400_000;
      const expired = await check(b.token, newKey(Date.now() - day - 60_000), { draft: 'Hello' }).expect(422);
      expect(expired.body.error.code).to.equal('idempotency_key_expired');
      const future = await check(b.token, newKey(Date.now() + 60 * 60_000), { draft: 'Hello' }).expect(422);
      expect(future.body.error.code).to.equal('idempotency_key_from_future');
      for (const bad of ['embed-123-abc', `embed-${Date.now()}-`, `key-${Date.now()}-abc`, `embed-${Date.now()}-a b`, `embed-${Date.now()}-${'x'.repeat(129)}`]) {
        const res = await check(b.token, bad, { draft: 'Hello' });
        expect(res.status, bad).to.equal(422);
        expect(res.body.error.code, bad).to.equal('invalid_idempotency_key');
      }
      // A key just inside the window is still good.
      await check(b.token, newKey(Date.now() - day + 60_000), { draft: 'Hello' }).expect(200);
      expect(await creditsOf(b.id)).to.equal(9);
    });

    it('charges each keyless request as a new check', async function () {
      const b = await bundle(10);
      await check(b.token, undefined, { draft: 'Hello there' }).expect(200);
      const second = await check(b.token, undefined, { draft: 'Hello there' }).expect(200);
      expect(second.headers['x-payment-replayed']).to.equal(undefined);
      expect(await creditsOf(b.id)).to.equal(8);
    });

    it('requires an existing bundle token', async function () {
      const missing = await stack.http.post(PATH).set('Idempotency-Key', newKey()).send({ draft: 'Hello' }).expect(401);
      expect(missing.body.error.code).to.equal('bundle_token_required');
      const unknown = await check(newBundleToken(), newKey(), { draft: 'Hello' }).expect(401);
      expect(unknown.body.error.code).to.equal('invalid_bundle_token');
    });

    it('requires context.situation in contextual mode and refuses a context in structural mode', async function () {
      const b = await bundle(10);
      const res = await check(b.token, newKey(), { draft: 'Hello', mode: 'contextual' }).expect(422);
      expect(res.body.error.details.fields.map((f: { path: string }) => f.path)).to.include('/context');
      await check(b.token, newKey(), { draft: 'Hello', context: { situation: 'x' } }).expect(422);
      expect(await creditsOf(b.id)).to.equal(10);
    });

    it('leaves the key free and the credit unspent when storing the answer fails', async function () {
      const b = await bundle(10);
      const key = newKey();
      await query(`CREATE FUNCTION embed_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected'; END $$`);
      await query(`CREATE TRIGGER embed_test_fail BEFORE INSERT ON embed_checks FOR EACH ROW EXECUTE FUNCTION embed_test_fail()`);
      try {
        await check(b.token, key, { draft: EMOJI_DRAFT }).expect(500);
        expect(await creditsOf(b.id)).to.equal(10);
      } finally {
        await query(`DROP TRIGGER embed_test_fail ON embed_checks`);
        await query(`DROP FUNCTION embed_test_fail()`);
      }
      const retried = await check(b.token, key, { draft: EMOJI_DRAFT }).expect(200);
      expect(retried.body.billing).to.include({ credits_spent: 1, replayed: false });
      expect(await creditsOf(b.id)).to.equal(9);
    });
  });

  describe('the contextual evaluator against a local provider', function () {
    const draft = 'I completely understand 😊 and we will refund you today, guaranteed.';
    const body = { draft, mode: 'contextual', context: { situation: 'A customer asks about a delayed refund.', incoming_message: 'Where is my money?' } };

    it('accepts known codes with in-range offsets, in one call with no tools and no retries', async function () {
      const b = await bundle(10);
      const start = draft.indexOf('guaranteed');
      chat.content = JSON.stringify({ issues: [{ code: 'overpromise', start, end: start + 'guaranteed'.length }] });
      const res = await check(b.token, newKey(), body).expect(200);
      expect(res.body.evaluator).to.equal('contextual-evaluator-1');
      const over = (res.body.issues as Array<{ code: string; start: number; end: number }>).find((i) => i.code === 'overpromise');
      expect(over).to.include({ start, end: start + 10 });
      expect(chat.calls).to.have.length(1);
      const sent = chat.calls[0];
      expect(sent.authorization).to.equal('Bearer sk-local-test');
      expect(sent.body.model).to.equal('local-model');
      expect(sent.body).to.not.have.property('tools');
      expect(sent.body).to.not.have.property('tool_choice');
      expect(await creditsOf(b.id)).to.equal(9);
    });

    for (const mode of ['429', '500', 'malformed'] as const) {
      it(`answers a provider ${mode} as unavailable after exactly one call, with no credit used`, async function () {
        const b = await bundle(10);
        chat.mode = mode;
        const key = newKey();
        const res = await check(b.token, key, body).expect(503);
        expect(res.body.error.code).to.equal('contextual_unavailable');
        expect(res.body.error.details.reason).to.equal({ '429': 'rate_limited', '500': 'provider_error', malformed: 'malformed' }[mode]);
        expect(chat.calls).to.have.length(1);
        expect(await creditsOf(b.id)).to.equal(10);
        // The key stays free: once the provider answers, the same key is checked and charged once.
        chat.mode = 'ok';
        await check(b.token, key, body).expect(200);
        expect(await creditsOf(b.id)).to.equal(9);
      });
    }

    it('does not trust output with an unknown code, an out-of-range offset or a split emoji', async function () {
      const b = await bundle(10);
      const emoji = draft.indexOf('😊');
      for (const issues of [
        [{ code: 'made-up-code', start: 0, end: 1 }],
        [{ code: 'overpromise', start: 0, end: draft.length + 1 }],
        [{ code: 'overpromise', start: -1, end: 3 }],
        [{ code: 'overpromise', start: 5, end: 5 }],
        [{ code: 'overpromise', start: emoji + 1, end: emoji + 2 }],
        [{ code: 'overpromise', start: 1.5, end: 3 }],
      ]) {
        chat.content = JSON.stringify({ issues });
        const res = await check(b.token, newKey(), body).expect(503);
        expect(res.body.error.details.reason, JSON.stringify(issues)).to.equal('malformed');
      }
      chat.content = 'not json at all';
      expect((await check(b.token, newKey(), body).expect(503)).body.error.details.reason).to.equal('malformed');
      expect(await creditsOf(b.id)).to.equal(10);
    });

    it('ends a hanging provider at about 12 s with one call and no credit used', async function () {
      const b = await bundle(10);
      chat.mode = 'hang';
      const started = Date.now();
      const res = await check(b.token, newKey(), body).expect(503);
      const took = Date.now() - started;
      expect(res.body.error.details.reason).to.equal('timeout');
      expect(res.headers['retry-after']).to.equal('5');
      expect(took).to.be.within(11_500, 14_500);
      expect(chat.calls).to.have.length(1);
      expect(await creditsOf(b.id)).to.equal(10);
    });

    it('answers contextual mode unavailable without a provider while structural mode works', async function () {
      const b = await bundle(10);
      const noProvider = testConfig({ DATABASE_URL: stack.config.db.url!, QUEUE_PREFIX: stack.config.redis.queuePrefix });
      expect(noProvider.llm.provider).to.equal(undefined);
      const http = supertest(createApp({ ...stack.deps, config: noProvider }).callback());
      const res = await check(b.token, newKey(), body, http).expect(503);
      expect(res.body.error).to.deep.include({ code: 'contextual_unavailable' });
      expect(res.body.error.details).to.deep.equal({ evaluator: 'contextual-evaluator-1', reason: 'not_configured', credits_spent: 0 });
      expect(res.headers['retry-after']).to.equal(undefined);
      await check(b.token, newKey(), { draft: EMOJI_DRAFT }, http).expect(200);
      expect(chat.calls).to.have.length(0);
      expect(await creditsOf(b.id)).to.equal(9);
    });
  });

  describe('retention of the text', function () {
    it('keeps a stored answer for its key\'s 86400 s window from the key\'s own timestamp, then sweeps it', async function () {
      const b = await bundle(10);
      const issuedAt = Date.now() - 60_000;
      await check(b.token, newKey(issuedAt), { draft: 'Hello there' }).expect(200);
      await check(b.token, newKey(), { draft: 'Hello again' }).expect(200);
      const [row] = await query(`SELECT extract(epoch FROM expires_at) * 1000 AS ms FROM embed_checks ORDER BY expires_at LIMIT 1`);
      expect(Math.abs(Number(row.ms) - (issuedAt + 86_400_000))).to.be.below(1000);
      await query(`UPDATE embed_checks SET expires_at = now() - interval '1 second' WHERE expires_at = (SELECT min(expires_at) FROM embed_checks)`);
      const sweep = createEmbedSweepProcessor({ dataSource: stack.deps.dataSource, log: stack.deps.logger });
      expect(await sweep({ id: 'sweep' } as never)).to.deep.equal({ deleted: 1 });
      expect((await query(`SELECT count(*)::int AS n FROM embed_checks`))[0].n).to.equal(1);
    });

    it('leaves nothing of the draft in PostgreSQL, Redis or the logs', async function () {
      const b = await bundle(10);
      const marker = `Zanzibar${randomBytes(6).toString('hex')}`;
      const draftText = `Great question! ${marker} is — truly — a tapestry.`;
      const plainHash = createHash('sha256').update(draftText).digest('hex');
      chat.content = '{"issues":[]}';
      await check(b.token, newKey(), { draft: draftText }).expect(200);
      await check(b.token, newKey(), { draft: draftText, mode: 'contextual', context: { situation: 'Chat.' } }).expect(200);
      await check(b.token, newKey(), { draft: `${draftText}!` }).expect(200);
      expect(logText.length).to.be.greaterThan(0);

      const tables = await query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`);
      expect(tables.length).to.be.greaterThan(10);
      for (const { table_name } of tables) {
        const hits = await query(`SELECT count(*)::int AS n FROM "${String(table_name)}" t WHERE t::text LIKE $1 OR t::text LIKE $2`, [`%${marker}%`, `%${plainHash}%`]);
        expect(hits[0].n, String(table_name)).to.equal(0);
      }
      expect((await query(`SELECT count(*)::int AS n FROM embed_checks`))[0].n).to.equal(3);

      const redis = stack.deps.redis;
      // Every key of this suite's prefix (queues, events, claims); other suites share the server.
      const keys = await redis.keys(`${stack.config.redis.queuePrefix}*`);
      expect(keys.length).to.be.greaterThan(0);
      for (const k of keys) {
        const type = await redis.type(k);
        let dump = '';
        if (type === 'string') dump = (await redis.get(k)) ?? '';
        else if (type === 'hash') dump = JSON.stringify(await redis.hgetall(k));
        else if (type === 'list') dump = JSON.stringify(await redis.lrange(k, 0, -1));
        else if (type === 'set') dump = JSON.stringify(await redis.smembers(k));
        else if (type === 'zset') dump = JSON.stringify(await redis.zrange(k, 0, -1));
        else if (type === 'stream') dump = JSON.stringify(await redis.xrange(k, '-', '+'));
        expect(dump, k).to.not.include(marker);
        expect(dump, k).to.not.include(plainHash);
      }
      expect(logText).to.not.include(marker);
      expect(logText).to.not.include(plainHash);
    });
  });
});
