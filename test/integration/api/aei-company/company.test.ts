import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { payCheckout, startCardStack, type CardStack } from '../../../helpers/card-stack';
import { mintCredential } from '../../../../shared/operators/credentials';
import { buyActiveCompany } from '../../../helpers/company';
import { until } from '../../../helpers/until';

const SUCCESS_CARD = '4242 4242 4242 4242';
const TOKEN_HEADER = 'X-AEI-COMPANY-TOKEN';

type Event = { id: string; type: string; data: { object: Record<string, unknown> } };

describe('company program: terms, checkout, claim and usage (real SDK, local card processor, PostgreSQL, Redis)', function () {
  this.timeout(60_000);
  let cards: CardStack;

  before(async function () {
    cards = await startCardStack('aei-company', { worker: false });
  });
  after(async function () {
    await cards?.close();
  });
  beforeEach(async function () {
    cards.processor.resumeWebhooks();
    await cards.stack.truncate();
  });

  const http = () => cards.stack.http;

  async function terms(): Promise<{ version: string; content_hash: string; allowances: Record<string, number>; price: { amount_cents: number } }> {
    const res = await http().get('/api/aei/company/terms').expect(200);
    return res.body;
  }

  async function checkout() {
    const res = await http().post('/api/aei/company/checkout').send({});
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body as { checkout_url: string; checkout_session_id: string; company_token: string; bundle_token: string; status: string };
  }

  async function claim(token: string, body?: Record<string, unknown>) {
    const t = await terms();
    return http().post('/api/aei/company/claim').set(TOKEN_HEADER, token).send(body ?? { terms_version: t.version, terms_hash: t.content_hash });
  }

  const usage = (token: string) => http().get('/api/aei/company/usage').set(TOKEN_HEADER, token);

  const grants = async () => cards.count('card_grants');

  // The session's own events and those of its payment intent.
  function eventsOf(sessionId: string): Event[] {
    const all = cards.processor.events() as unknown as Event[];
    const intent = all.find((e) => e.data.object.id === sessionId && e.data.object.payment_intent)?.data.object.payment_intent;
    return all.filter((e) => e.data.object.id === sessionId || (intent !== undefined && e.data.object.id === intent));
  }

  /** A company bought and claimed: its tokens. */
  async function activeCompany() {
    const bought = await checkout();
    expect((await payCheckout(bought.checkout_url, SUCCESS_CARD)).status).to.equal(303);
    await until(async () => (await grants()) >= 1 && (await claim(bought.company_token)).status === 200, 10_000, 'the company is claimed');
    return bought;
  }

  it('publishes versioned terms whose content hash is the SHA-256 of the rest', async function () {
    const body = (await http().get('/api/aei/company/terms').expect(200)).body as Record<string, unknown>;
    const { content_hash: hash, ...rest } = body;
    expect(hash).to.equal(createHash('sha256').update(JSON.stringify(rest)).digest('hex'));
    expect(body.version).to.equal('aei-company-terms-1');
    expect(body.allowances).to.deep.equal({ guide_calls: 20000, embedded_check_credits: 2000, pilot_sponsorship_slots: 5 });
    expect(body.price).to.deep.equal({ amount_cents: 25000, currency: 'usd', display: '$250.00' });
    expect((body.data_handling as string[]).join(' ')).to.match(/keeps no text/);
  });

  it('refuses a checkout with an unknown field or plan with 422 naming the field, creating nothing', async function () {
    for (const [body, field] of [
      [{ amount: 1 }, '/amount'],
      [{ plan: 'enterprise' }, '/plan'],
    ] as const) {
      const res = await http().post('/api/aei/company/checkout').send(body);
      expect(res.status).to.equal(422);
      expect(res.body.error.details.fields.map((f: { path: string }) => f.path)).to.include(field);
    }
    expect(await cards.count('aei_companies')).to.equal(0);
    expect(await cards.count('bundles')).to.equal(0);
    expect(cards.processor.requests().filter((r) => r.path === '/v1/checkout/sessions')).to.have.length(0);
  });

  it('buys, refuses a claim before payment, grants once under duplicate webhooks, then activates idempotently', async function () {
    const bought = await checkout();
    expect(bought.company_token).to.match(/^hlc_[A-Za-z0-9_-]{43}$/);
    expect(bought.bundle_token).to.match(/^hlb_/);
    expect(bought.status).to.equal('pending');
    const stored = (await cards.stack.deps.dataSource.query(`SELECT token_hash FROM aei_companies`)) as Array<{ token_hash: string }>;
    expect(stored).to.have.length(1);
    expect(stored[0].token_hash).to.equal(createHash('sha256').update(bought.company_token).digest('hex'));

    // Unpaid: the claim says so and activates nothing; the token is inactive everywhere else.
    const early = await claim(bought.company_token);
    expect(early.status).to.equal(409);
    expect(early.body.error.code).to.equal('payment_not_settled');
    expect((await usage(bought.company_token)).body.error.code).to.equal('program_token_inactive');
    expect((await usage(bought.company_token)).status).to.equal(401);

    expect((await payCheckout(bought.checkout_url, SUCCESS_CARD)).status).to.equal(303);
    await until(async () => (await grants()) === 1, 10_000, 'the grant');
    const first = await claim(bought.company_token);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body).to.include({ status: 'active' });
    expect(first.body.period.days).to.equal(30);
    const second = await claim(bought.company_token);
    expect(second.status).to.equal(200);
    expect(second.body.activated_at).to.equal(first.body.activated_at);
    expect(second.body.period).to.deep.equal({ ...first.body.period, ended: false });

    // Duplicates: the same completion twice more, and the same session under another event id.
    const completed = (cards.processor.events() as unknown as Event[]).find((e) => e.type === 'checkout.session.completed' && e.data.object.id === bought.checkout_session_id)!;
    expect(completed).to.not.equal(undefined);
    expect(await cards.processor.deliver(completed.id)).to.equal(200);
    expect(await cards.processor.deliver(completed.id)).to.equal(200);
    const copy = JSON.stringify({ ...completed, id: `${completed.id}copy`, type: 'checkout.session.async_payment_succeeded' });
    const res = await fetch(`${cards.url}/api/card/webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': cards.processor.sign(copy) }, body: copy });
    expect(await res.json()).to.deep.equal({ received: true, outcome: 'already_granted' });
    expect(await grants()).to.equal(1);

    const read = await usage(bought.company_token);
    expect(read.status).to.equal(200);
    expect(read.body.allowances).to.deep.equal({
      guide_calls: { total: 20000, used: 0, left: 20000 },
      embedded_check_credits: { total: 2000, used: 0, left: 2000 },
      pilot_sponsorship_slots: { total: 5, used: 0, left: 5 },
    });
    expect(read.body.period.starts_at).to.equal(first.body.activated_at);
    const balance = await http().get('/api/bundle/balance').set('X-BUNDLE-TOKEN', bought.bundle_token).expect(200);
    expect(balance.body.credits_remaining).to.equal(2000);
    // Neither token reaches a log line.
    expect(cards.logs.filter((l) => l.includes(bought.company_token) || l.includes(bought.bundle_token))).to.deep.equal([]);
  });

  it('grants once when the webhooks arrive reordered and repeated', async function () {
    cards.processor.pauseWebhooks();
    const bought = await checkout();
    expect((await payCheckout(bought.checkout_url, SUCCESS_CARD)).status).to.equal(303);
    const events = eventsOf(bought.checkout_session_id);
    expect(events.map((e) => e.type)).to.include.members(['checkout.session.completed', 'payment_intent.succeeded']);
    for (const event of [...events].reverse()) expect(await cards.processor.deliver(event.id)).to.equal(200);
    for (const event of events) expect(await cards.processor.deliver(event.id)).to.equal(200);
    expect(await grants()).to.equal(1);
    expect((await claim(bought.company_token)).status).to.equal(200);
    expect((await usage(bought.company_token)).body.allowances.embedded_check_credits.total).to.equal(2000);
  });

  it('refuses other terms with 422 naming the field and leaves the token inactive', async function () {
    const bought = await checkout();
    await payCheckout(bought.checkout_url, SUCCESS_CARD);
    await until(async () => (await grants()) === 1, 10_000, 'the grant');
    const t = await terms();
    for (const [body, field, code] of [
      [{ terms_version: 'aei-company-terms-0', terms_hash: t.content_hash }, '/terms_version', 'terms_not_current'],
      [{ terms_version: t.version, terms_hash: '0'.repeat(64) }, '/terms_hash', 'terms_not_current'],
      [{ terms_version: t.version, terms_hash: 'not-a-hash' }, '/terms_hash', 'validation_failed'],
      [{ terms_version: t.version }, '/terms_hash', 'validation_failed'],
    ] as const) {
      const res = await claim(bought.company_token, body);
      expect(res.status, JSON.stringify(body)).to.equal(422);
      expect(res.body.error.code).to.equal(code);
      expect(res.body.error.details.fields.map((f: { path: string }) => f.path)).to.include(field);
    }
    expect((await usage(bought.company_token)).status).to.equal(401);
    const rows = (await cards.stack.deps.dataSource.query(`SELECT activated_at FROM aei_companies`)) as Array<{ activated_at: Date | null }>;
    expect(rows).to.deep.equal([{ activated_at: null }]);
  });

  it('answers 401 for a missing, malformed, unknown or other program token, and shows each company only its own data', async function () {
    const a = await activeCompany();
    const b = await checkout();
    const refused: Array<[string | undefined, string]> = [
      [undefined, 'program_token_required'],
      ['', 'program_token_required'],
      ['hlc_short', 'program_token_invalid'],
      [`hlc_${'A'.repeat(43)}`, 'program_token_invalid'],
      [`hlw_${'A'.repeat(43)}`, 'program_token_invalid'],
      [a.bundle_token, 'program_token_invalid'],
      [b.company_token, 'program_token_inactive'],
    ];
    for (const [token, code] of refused) {
      const read = http().get('/api/aei/company/usage');
      if (token !== undefined) read.set(TOKEN_HEADER, token);
      const res = await read;
      expect(res.status, String(token)).to.equal(401);
      expect(res.body.error.code, String(token)).to.equal(code);
      // The claim reads any known token (a pending one gets its own answer), so only the others are 401 there.
      if (code === 'program_token_inactive') continue;
      const post = http().post('/api/aei/company/claim').send({ terms_version: 'x', terms_hash: '0'.repeat(64) });
      if (token !== undefined) post.set(TOKEN_HEADER, token);
      const claimed = await post;
      expect(claimed.status, String(token)).to.equal(401);
      expect(claimed.body.error.code, String(token)).to.equal(code);
    }
    // A token in the query string is never read.
    expect((await http().get(`/api/aei/company/usage?${TOKEN_HEADER}=${a.company_token}`)).status).to.equal(401);
    const own = await usage(a.company_token);
    expect(own.status).to.equal(200);
    // B's bundle (pending, no credits) is not A's: A sees its own granted credits only.
    expect(own.body.allowances.embedded_check_credits.total).to.equal(2000);
  });

  it('counts the pilot sponsors an operator links to a company against its sponsorship slots, and refuses one more', async function () {
    const company = await buyActiveCompany(cards);
    const operator = (await mintCredential(cards.stack.deps.dataSource, 'operator', 3_600)).token;
    const read = await usage(company.companyToken).expect(200);
    const companyId = read.body.company_id as string;
    expect(companyId).to.match(/^[0-9a-f-]{36}$/);
    const slots = read.body.allowances.pilot_sponsorship_slots.total as number;
    expect(slots).to.be.greaterThan(0);
    const sponsor = (i: number, extra: Record<string, unknown>) =>
      http()
        .post('/api/operator/aei/sponsor')
        .set('Authorization', `Bearer ${operator}`)
        .send({ name: `Sponsor ${i}`, topic: 'travel', participant_brief: 'You need to change a booking.', ...extra });
    const linked: string[] = [];
    for (let i = 0; i < slots; i++) {
      const res = await sponsor(i, { company_id: companyId });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.sponsor.company_id).to.equal(companyId);
      linked.push(res.body.sponsor.sponsor_id as string);
    }
    expect((await usage(company.companyToken)).body.allowances.pilot_sponsorship_slots).to.deep.equal({ total: slots, used: slots, left: 0 });
    // One more is refused and not linked; the sponsor is not created either (one transaction).
    const full = await sponsor(slots, { company_id: companyId });
    expect(full.status).to.equal(409);
    expect(full.body.error.code).to.equal('sponsorship_slots_full');
    const listed = await http().get('/api/operator/aei/sponsor').set('Authorization', `Bearer ${operator}`).expect(200);
    expect((listed.body.sponsors as Array<{ name: string }>).map((s) => s.name)).to.not.include(`Sponsor ${slots}`);
    // Changing a linked sponsor keeps its slot; unlinking one frees it.
    expect((await sponsor(0, { sponsor_id: linked[0], company_id: companyId, name: 'Sponsor 0' })).status).to.equal(200);
    expect((await sponsor(0, { sponsor_id: linked[0], company_id: null, name: 'Sponsor 0' })).status).to.equal(200);
    expect((await usage(company.companyToken)).body.allowances.pilot_sponsorship_slots).to.deep.equal({ total: slots, used: slots - 1, left: 1 });
    // An unknown company is named as the field at fault.
    const unknown = await sponsor(99, { company_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).to.equal(422);
    expect(unknown.body.error.code).to.equal('company_unknown');
  });

});
