import { createHash, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { buyActiveCompany, type ActiveCompany } from '../../../helpers/company';
import { startCardStack, type CardStack } from '../../../helpers/card-stack';

const COMPANY = 'X-AEI-COMPANY-TOKEN';
const PROFILE = 'upbeat-support-agent';

// An emoji first: the offsets count UTF-16 code units, as JavaScript strings index them.
function draftWith(nonce: string): string {
  return `👋 Great question! As an AI language model, I understand your frustration about order ${nonce}. I hope this helps! Let me know if you have any other questions.`;
}

async function everyRedisValue(redis: Redis): Promise<string> {
  const parts: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'COUNT', 500);
    cursor = next;
    for (const key of keys) {
      parts.push(key);
      const type = await redis.type(key);
      if (type === 'string') parts.push((await redis.get(key)) ?? '');
      else if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
      else if (type === 'list') parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
      else if (type === 'set') parts.push(JSON.stringify(await redis.smembers(key)));
      else if (type === 'zset') parts.push(JSON.stringify(await redis.zrange(key, 0, -1)));
      else if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
    }
  } while (cursor !== '0');
  return parts.join('\n');
}

describe('POST /api/aei/guide (real PostgreSQL, Redis and card processor)', function () {
  this.timeout(60_000);
  let cards: CardStack;

  before(async function () {
    cards = await startCardStack('aei-guide', { worker: false });
  });
  after(async function () {
    await cards?.close();
  });
  beforeEach(async function () {
    await cards.stack.truncate();
    // The rate windows and replays of earlier tests (Redis is not truncated with the tables).
    const stale = await cards.stack.deps.redis.keys(`${cards.stack.config.redis.queuePrefix}aei-guide:*`);
    if (stale.length > 0) await cards.stack.deps.redis.del(...stale);
  });

  const http = () => cards.stack.http;
  const guide = (body: Record<string, unknown>, headers: Record<string, string> = {}) => http().post('/api/aei/guide').set(headers).send(body);
  const usedGuideCalls = async (company: ActiveCompany) =>
    (await http().get('/api/aei/company/usage').set(COMPANY, company.companyToken).expect(200)).body.allowances.guide_calls as { used: number; left: number };

  it('guides a draft with the company token: signal codes with UTF-16 offsets, advice without quotes, and one guide call used', async function () {
    const company = await buyActiveCompany(cards);
    const draft = draftWith(randomUUID());
    const res = await guide({ draft, profile: PROFILE, situation: { incoming_message: 'my order never arrived', response_delay_seconds: 40 } }, { [COMPANY]: company.companyToken });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ profile: PROFILE, offsets: 'utf-16', replayed: false });
    expect(res.body.allowance).to.deep.equal({ kind: 'company', left: 19_999 });
    const codes = res.body.signals.map((s: { code: string }) => s.code);
    expect(codes).to.include.members(['ai-self-disclosure', 'assistant-boilerplate']);
    const disclosure = res.body.signals.find((s: { code: string }) => s.code === 'ai-self-disclosure');
    expect(disclosure.spans).to.have.length(1);
    expect(draft.slice(disclosure.spans[0].start, disclosure.spans[0].end)).to.equal('As an AI');
    const boilerplate = res.body.signals.find((s: { code: string }) => s.code === 'assistant-boilerplate');
    expect(boilerplate.spans.map((s: { start: number; end: number }) => draft.slice(s.start, s.end))).to.include('I hope this helps');
    // No phrase of the draft comes back: the answer is kept for replays and must hold no text.
    const body = JSON.stringify(res.body);
    for (const phrase of ['I hope this helps', 'Great question', 'I understand your frustration', 'order ']) expect(body, phrase).to.not.include(phrase);
    expect(res.body.advice.improvement).to.match(/at characters 19-27/);
    expect(res.body.advice.suggested_delay_seconds).to.have.property('expected');
    expect(await usedGuideCalls(company)).to.deep.equal({ total: 20_000, used: 1, left: 19_999 });
  });

  it('replays the same Idempotency-Key with the same inputs without using the allowance, and refuses other inputs with 409', async function () {
    const company = await buyActiveCompany(cards);
    const draft = draftWith(randomUUID());
    const headers = { [COMPANY]: company.companyToken, 'Idempotency-Key': `guide-${randomUUID()}` };
    const first = await guide({ draft, profile: PROFILE }, headers);
    expect(first.status).to.equal(200);
    const again = await guide({ draft, profile: PROFILE }, headers);
    expect(again.status).to.equal(200);
    expect(again.body.replayed).to.equal(true);
    const strip = (b: Record<string, unknown>) => ({ ...b, replayed: undefined, allowance: undefined });
    expect(strip(again.body)).to.deep.equal(strip(first.body));
    for (const changed of [{ draft: `${draft} `, profile: PROFILE }, { draft, profile: 'formal-concierge' }, { draft, profile: PROFILE, situation: { incoming_message: 'hi' } }]) {
      const conflict = await guide(changed, headers);
      expect(conflict.status, JSON.stringify(changed)).to.equal(409);
      expect(conflict.body.error.code).to.equal('idempotency_conflict');
    }
    expect((await usedGuideCalls(company)).used).to.equal(1);
    // Another company's token never sees this key's answer: the same key runs afresh for it.
    const other = await buyActiveCompany(cards);
    const theirs = await guide({ draft, profile: PROFILE }, { ...headers, [COMPANY]: other.companyToken });
    expect(theirs.body.replayed).to.equal(false);
    expect((await usedGuideCalls(other)).used).to.equal(1);
    expect((await usedGuideCalls(company)).used).to.equal(1);
  });

  it('rate-limits callers without a token, while a bundle token has its own bucket and spends no credit', async function () {
    const draft = draftWith(randomUUID());
    for (let i = 0; i < 10; i += 1) {
      const res = await guide({ draft, profile: PROFILE });
      expect(res.status, `call ${i + 1}`).to.equal(200);
      expect(res.body.allowance).to.deep.equal({ kind: 'caller', left: 9 - i });
    }
    const limited = await guide({ draft, profile: PROFILE });
    expect(limited.status).to.equal(429);
    expect(limited.body.error.code).to.equal('guide_rate_limited');
    expect(Number(limited.headers['retry-after'])).to.be.within(1, 60);
    const company = await buyActiveCompany(cards);
    const withBundle = await guide({ draft, profile: PROFILE }, { 'X-BUNDLE-TOKEN': company.bundleToken });
    expect(withBundle.status).to.equal(200);
    expect(withBundle.body.allowance).to.deep.equal({ kind: 'bundle', left: 59 });
    expect((await http().get('/api/bundle/balance').set('X-BUNDLE-TOKEN', company.bundleToken).expect(200)).body.credits_remaining).to.equal(2000);
    expect((await guide({ draft, profile: PROFILE }, { [COMPANY]: company.companyToken })).status).to.equal(200);
  });

  it('answers 401 for a company or bundle token that is unknown or inactive, using nothing', async function () {
    const draft = draftWith(randomUUID());
    const pending = (await http().post('/api/aei/company/checkout').send({}).expect(201)).body as { company_token: string };
    for (const [headers, code] of [
      [{ [COMPANY]: `hlc_${'A'.repeat(43)}` }, 'program_token_invalid'],
      [{ [COMPANY]: 'nonsense' }, 'program_token_invalid'],
      [{ [COMPANY]: pending.company_token }, 'program_token_inactive'],
      [{ 'X-BUNDLE-TOKEN': `hlb_${'A'.repeat(43)}` }, 'invalid_bundle_token'],
    ] as const) {
      const res = await guide({ draft, profile: PROFILE }, headers);
      expect(res.status, JSON.stringify(headers)).to.equal(401);
      expect(res.body.error.code).to.equal(code);
    }
    expect(await cards.stack.deps.redis.keys(`${cards.stack.config.redis.queuePrefix}aei-guide:*`)).to.deep.equal([]);
  });

  it('refuses bad input with 422 naming the field, storing and counting nothing', async function () {
    const company = await buyActiveCompany(cards);
    const draft = draftWith(randomUUID());
    const cases: Array<[Record<string, unknown>, string, Record<string, string>?]> = [
      [{ profile: PROFILE }, '/draft'],
      [{ draft: '   ', profile: PROFILE }, '/draft'],
      [{ draft, profile: 'robot' }, '/profile'],
      [{ draft, profile: PROFILE, situation: { response_delay_seconds: -1 } }, '/situation/response_delay_seconds'],
      [{ draft, profile: PROFILE, situation: { mood: 'sad' } }, '/situation/mood'],
      [{ draft, profile: PROFILE, text: draft }, '/text'],
      [{ draft, profile: PROFILE }, '/headers/idempotency-key', { 'Idempotency-Key': 'has spaces in it' }],
    ];
    for (const [body, field, extra] of cases) {
      const res = await guide(body, { [COMPANY]: company.companyToken, ...(extra ?? {}) });
      expect(res.status, JSON.stringify(body)).to.equal(422);
      expect(res.body.error.details.fields.map((f: { path: string }) => f.path), JSON.stringify(body)).to.include(field);
    }
    expect((await usedGuideCalls(company)).used).to.equal(0);
    expect(await cards.stack.deps.redis.keys(`${cards.stack.config.redis.queuePrefix}aei-guide:*`)).to.deep.equal([]);
    expect(cards.logs.filter((l) => l.includes(draft))).to.deep.equal([]);
  });

  it('keeps no text: neither the draft, its situation nor their plain SHA-256 is in PostgreSQL, Redis or a log after a run', async function () {
    const company = await buyActiveCompany(cards);
    const draft = draftWith(randomUUID());
    const incoming = `where is my parcel ${randomUUID()}`;
    const secrets = [draft, incoming, createHash('sha256').update(draft).digest('hex'), createHash('sha256').update(incoming).digest('hex')];
    const body = { draft, profile: PROFILE, situation: { incoming_message: incoming } };
    expect((await guide(body, { [COMPANY]: company.companyToken, 'Idempotency-Key': `k-${randomUUID()}` })).status).to.equal(200);
    expect((await guide(body, { 'Idempotency-Key': `k-${randomUUID()}` })).status).to.equal(200);
    expect((await guide(body, { 'X-BUNDLE-TOKEN': company.bundleToken })).status).to.equal(200);
    expect((await guide({ ...body, profile: 'robot' }, {})).status).to.equal(422);

    const ds = cards.stack.deps.dataSource;
    const tables = (await ds.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`)) as Array<{ table_name: string }>;
    expect(tables.length).to.be.above(30);
    let dump = '';
    for (const { table_name: table } of tables) {
      const rows = (await ds.query(`SELECT row_to_json(t)::text AS j FROM "${table}" t`)) as Array<{ j: string }>;
      dump += rows.map((r) => r.j).join('\n');
    }
    // The scan sees what the run wrote (the company's rows), so an empty dump cannot pass.
    expect(dump).to.include('aei-company');
    const redisDump = await everyRedisValue(cards.stack.deps.redis);
    expect(redisDump).to.include('aei-guide:replay');
    const logs = cards.logs.join('\n');
    expect(logs).to.include('guide answered');
    for (const secret of secrets) {
      expect(dump.includes(secret), 'PostgreSQL').to.equal(false);
      expect(redisDump.includes(secret), 'Redis').to.equal(false);
      expect(logs.includes(secret), 'logs').to.equal(false);
    }
  });
});
