import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Job } from 'bullmq';
import { expect } from 'chai';
import { createStripeClient } from '../../../../shared/cards/stripe-client';
import { createLogger } from '../../../../shared/logger';
import { Queue } from 'bullmq';
import { QUEUE } from '../../../../jobs';
import { CARD_RENEWALS_JOB, createCardReconcilerProcessor, createCardRenewalsProcessor, type RenewalReport } from '../../../../workers/maintenance/card-packs.processor';
import { payCheckout, startCardStack, type CardStack } from '../../../helpers/card-stack';
import { until } from '../../../helpers/until';

const PACKS = [
  { id: 'starter', cents: 500, credits: 105 },
  { id: 'builder', cents: 2000, credits: 444 },
  { id: 'fleet', cents: 5000, credits: 1176 },
] as const;

const SUCCESS_CARD = '4242 4242 4242 4242';
const DECLINED_CARD = '4000 0000 0000 0002';

type Event = { id: string; type: string; data: { object: Record<string, unknown> } };

describe('card credit packs (real SDK, local card processor, real PostgreSQL and Redis)', function () {
  this.timeout(60_000);
  let cards: CardStack;

  before(async function () {
    cards = await startCardStack('card-packs');
  });
  after(async function () {
    await cards?.close();
  });
  beforeEach(async function () {
    cards.processor.resumeWebhooks();
    await cards.stack.truncate();
  });

  const http = () => cards.stack.http;
  const jobDeps = () => ({
    dataSource: cards.stack.deps.dataSource,
    stripe: createStripeClient(cards.stack.config.cards)!,
    log: createLogger({ log: { level: 'silent' } }, 'test'),
  });
  const fakeJob = { id: 'test-run' } as Job;
  const renew = (): Promise<RenewalReport> => createCardRenewalsProcessor(jobDeps())(fakeJob);
  const reconcile = () => createCardReconcilerProcessor({ ...jobDeps(), lookbackSeconds: 3600 })(fakeJob);

  async function checkout(body: Record<string, unknown>, token?: string) {
    const req = http().post('/api/card/checkout');
    if (token) req.set('X-BUNDLE-TOKEN', token);
    return req.send(body);
  }

  async function balance(token: string) {
    const res = await http().get('/api/bundle/balance').set('X-BUNDLE-TOKEN', token);
    expect(res.status).to.equal(200);
    return res.body as { credits_total: number; credits_remaining: number; plan: string; wallet: null; card: { pending_purchases: Array<Record<string, unknown>>; renewals: Array<Record<string, unknown>> } };
  }

  const eventsOf = (sessionId: string, type: string): Event[] =>
    (cards.processor.events() as unknown as Event[]).filter((e) => e.type === type && e.data.object.id === sessionId);

  const delivered = (eventId: string) => cards.processor.deliveries().some((d) => d.eventId === eventId && d.status === 200);

  async function creditsAre(token: string, credits: number): Promise<void> {
    await until(async () => (await balance(token)).credits_remaining === credits, 10_000, `${credits} credits`);
  }

  it('quotes every pack from the catalog', async function () {
    const res = await http().get('/api/card/packs').expect(200);
    expect(res.body.available).to.equal(true);
    expect(res.body.packs.map((p: { id: string; price: { amount_cents: number; currency: string }; credits: number; discount_pct: number }) => [p.id, p.price.amount_cents, p.price.currency, p.credits, p.discount_pct])).to.deep.equal([
      ['starter', 500, 'usd', 105, 5],
      ['builder', 2000, 'usd', 444, 10],
      ['fleet', 5000, 'usd', 1176, 15],
    ]);
    expect(res.body.packs[0].terms.monthly).to.include({ auto_refill: true, interval: 'month', attempts_per_period: 1 });
  });

  it('refuses an unknown pack, a non-boolean auto_refill and unknown fields with 422 naming the field, creating nothing', async function () {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ pack: 'mega' }, '/pack'],
      [{ pack: 'starter', auto_refill: 'true' }, '/auto_refill'],
      [{ pack: 'starter', auto_refill: 1 }, '/auto_refill'],
      [{ pack: 'starter', amount: 1 }, '/amount'],
      [{}, '/pack'],
    ];
    for (const [body, field] of cases) {
      const res = await checkout(body);
      expect(res.status, JSON.stringify(body)).to.equal(422);
      expect(res.body.error.details.fields.map((f: { path: string }) => f.path), JSON.stringify(body)).to.include(field);
    }
    expect(await cards.count('bundles')).to.equal(0);
    expect(await cards.count('card_purchases')).to.equal(0);
    expect(cards.processor.requests().filter((r) => r.path === '/v1/checkout/sessions')).to.have.length(0);
  });

  for (const pack of PACKS) {
    it(`grants the ${pack.id} pack's ${pack.credits} credits exactly once, however often the webhook comes`, async function () {
      const res = await checkout({ pack: pack.id });
      expect(res.status).to.equal(201);
      const token = res.body.bundle_token as string;
      expect(token).to.match(/^hlb_/);
      expect(res.body).to.include({ pack: pack.id, credits: pack.credits, auto_refill: false, status: 'pending' });
      expect(res.body.price).to.include({ amount_cents: pack.cents, currency: 'usd' });
      const pending = await balance(token);
      expect(pending).to.include({ credits_remaining: 0, plan: 'card', wallet: null });
      expect(pending.card.pending_purchases).to.have.length(1);

      const page = await payCheckout(res.body.checkout_url, SUCCESS_CARD);
      expect(page.status).to.equal(303);
      expect(page.headers.get('location')).to.match(new RegExp(`/api/card/checkout/complete\\?session_id=${res.body.checkout_session_id}$`));
      await creditsAre(token, pack.credits);
      expect((await balance(token)).card.pending_purchases).to.have.length(0);

      // Duplicates: the same event again, twice; and the same session under another event id.
      const [completed] = eventsOf(res.body.checkout_session_id, 'checkout.session.completed');
      expect(await cards.processor.deliver(completed.id)).to.equal(200);
      expect(await cards.processor.deliver(completed.id)).to.equal(200);
      const copy = JSON.stringify({ ...completed, id: `${completed.id}copy`, type: 'checkout.session.async_payment_succeeded' });
      const res2 = await fetch(`${cards.url}/api/card/webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': cards.processor.sign(copy) }, body: copy });
      expect(await res2.json()).to.deep.equal({ received: true, outcome: 'already_granted' });
      expect((await balance(token)).credits_remaining).to.equal(pack.credits);
      expect(await cards.count('card_grants')).to.equal(1);
    });
  }

  it('grants once under reordered and late deliveries, and after a crash between storing the event and granting', async function () {
    cards.processor.pauseWebhooks();
    const res = await checkout({ pack: 'starter' });
    const token = res.body.bundle_token as string;
    expect((await payCheckout(res.body.checkout_url, SUCCESS_CARD)).status).to.equal(303);
    const [completed] = eventsOf(res.body.checkout_session_id, 'checkout.session.completed');
    // The crash: the event was stored, then the process died before applying it.
    await cards.stack.deps.dataSource.query(`INSERT INTO card_events (id, type, object_id, received_via) VALUES ($1, $2, $3, 'webhook')`, [completed.id, completed.type, res.body.checkout_session_id]);
    expect((await balance(token)).credits_remaining).to.equal(0);
    // Reordered: a later event about the same session's payment intent first, then the completion.
    const intentEvents = (cards.processor.events() as unknown as Event[]).filter((e) => e.type === 'payment_intent.succeeded' && e.data.object.id === completed.data.object.payment_intent);
    expect(intentEvents).to.have.length(1);
    expect(await cards.processor.deliver(intentEvents[0].id)).to.equal(200);
    expect(await cards.processor.deliver(completed.id)).to.equal(200);
    expect((await balance(token)).credits_remaining).to.equal(105);
    // Late: signed two minutes ago (within the tolerance), delivered after the grant.
    const body = JSON.stringify(completed);
    const late = await fetch(`${cards.url}/api/card/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': cards.processor.sign(body, Math.floor(Date.now() / 1000) - 120) },
      body,
    });
    expect(await late.json()).to.deep.equal({ received: true, outcome: 'duplicate' });
    expect((await reconcile()).granted).to.equal(0);
    const sent = cards.processor.deliveries().length;
    cards.processor.resumeWebhooks();
    await until(() => cards.processor.deliveries().length >= sent + 2, 10_000, 'held deliveries');
    expect((await balance(token)).credits_remaining).to.equal(105);
    expect(await cards.count('card_grants')).to.equal(1);
  });

  it('writes nothing for a tampered, wrongly signed or stale webhook', async function () {
    cards.processor.pauseWebhooks();
    const res = await checkout({ pack: 'builder' });
    await payCheckout(res.body.checkout_url, SUCCESS_CARD);
    const [completed] = eventsOf(res.body.checkout_session_id, 'checkout.session.completed');
    const genuine = JSON.stringify(completed);
    const tampered = genuine.replace('"amount_total":2000', '"amount_total":200000');
    expect(tampered).to.not.equal(genuine);
    const post = (body: string, signature: string) =>
      fetch(`${cards.url}/api/card/webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body });
    const attempts = [
      await post(tampered, cards.processor.sign(genuine)),
      await post(genuine, `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`),
      await post(genuine, cards.processor.sign(genuine, Math.floor(Date.now() / 1000) - 3600)),
      await post(genuine, ''),
    ];
    for (const answer of attempts) {
      expect(answer.status).to.equal(400);
      expect(((await answer.json()) as { error: { code: string } }).error.code).to.equal('invalid_signature');
    }
    expect(await cards.count('card_events')).to.equal(0);
    expect(await cards.count('card_grants')).to.equal(0);
    expect((await balance(res.body.bundle_token)).credits_remaining).to.equal(0);
  });

  it('grants nothing for a signed payment whose amount does not match its pack, and logs it for an operator', async function () {
    cards.processor.pauseWebhooks();
    const res = await checkout({ pack: 'fleet' });
    await payCheckout(res.body.checkout_url, SUCCESS_CARD);
    const [completed] = eventsOf(res.body.checkout_session_id, 'checkout.session.completed');
    const cheap = JSON.stringify({ ...completed, id: `${completed.id}cheap`, data: { object: { ...completed.data.object, amount_total: 500 } } });
    const answer = await fetch(`${cards.url}/api/card/webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': cards.processor.sign(cheap) }, body: cheap });
    expect(await answer.json()).to.deep.equal({ received: true, outcome: 'amount_mismatch' });
    expect((await balance(res.body.bundle_token)).credits_remaining).to.equal(0);
    expect(cards.logs.some((l) => l.includes('card payment does not match its pack') && l.includes(res.body.checkout_session_id))).to.equal(true);
    // The genuine event still grants.
    expect(await cards.processor.deliver(completed.id)).to.equal(200);
    expect((await balance(res.body.bundle_token)).credits_remaining).to.equal(1176);
  });

  it('grants nothing for a declined card and keeps the purchase pending', async function () {
    const res = await checkout({ pack: 'starter' });
    const page = await payCheckout(res.body.checkout_url, DECLINED_CARD);
    expect(page.status).to.equal(402);
    expect(await page.text()).to.contain('Your card was declined.');
    expect(eventsOf(res.body.checkout_session_id, 'checkout.session.completed')).to.have.length(0);
    const after = await balance(res.body.bundle_token);
    expect(after.credits_remaining).to.equal(0);
    expect(after.card.pending_purchases).to.have.length(1);
    expect(await reconcile()).to.include({ granted: 0 });
  });

  it('tops up an existing bundle with its token, showing no new token', async function () {
    const first = await checkout({ pack: 'starter' });
    await payCheckout(first.body.checkout_url, SUCCESS_CARD);
    await creditsAre(first.body.bundle_token, 105);
    const top = await checkout({ pack: 'builder' }, first.body.bundle_token);
    expect(top.status).to.equal(201);
    expect(top.body).to.include({ bundle_token: null, bundle_id: first.body.bundle_id });
    await payCheckout(top.body.checkout_url, SUCCESS_CARD);
    await creditsAre(first.body.bundle_token, 105 + 444);
    expect((await checkout({ pack: 'builder' }, 'hlb_not-a-real-token')).status).to.equal(401);
  });

  it('reconciles a paid checkout whose webhook never arrived, once', async function () {
    cards.processor.pauseWebhooks();
    const res = await checkout({ pack: 'builder' });
    await payCheckout(res.body.checkout_url, SUCCESS_CARD);
    expect((await balance(res.body.bundle_token)).credits_remaining).to.equal(0);
    expect(await reconcile()).to.include({ granted: 1 });
    expect((await balance(res.body.bundle_token)).credits_remaining).to.equal(444);
    expect(await reconcile()).to.include({ granted: 0, applied: 0 });
    cards.processor.resumeWebhooks();
    const [completed] = eventsOf(res.body.checkout_session_id, 'checkout.session.completed');
    await until(() => delivered(completed.id), 10_000, 'the late webhook');
    expect((await balance(res.body.bundle_token)).credits_remaining).to.equal(444);
  });

  describe('renewals', function () {
    async function autoRefillBundle(packId = 'starter') {
      const res = await checkout({ pack: packId, auto_refill: true });
      expect(res.status).to.equal(201);
      await payCheckout(res.body.checkout_url, SUCCESS_CARD);
      const token = res.body.bundle_token as string;
      await until(async () => (await balance(token)).card.renewals.length === 1, 10_000, 'the renewal');
      return { token, sessionId: res.body.checkout_session_id as string };
    }
    const makeDue = () => cards.stack.deps.dataSource.query(`UPDATE card_renewals SET next_charge_at = now() - interval '1 minute' WHERE status = 'active'`);
    const chargeAttempts = () => cards.processor.requests().filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents' && !r.replayed);

    it('charges a due renewal once per period and grants the same credits to the same token', async function () {
      const { token } = await autoRefillBundle('starter');
      const before = chargeAttempts().length;
      const state = (await balance(token)).card.renewals[0];
      expect(state).to.include({ status: 'active', pack: 'starter', credits: 105 });
      expect(await renew()).to.include({ charged: 0 });
      await makeDue();
      // The renewal's webhook is held so the job's own grant is what is measured (the webhook
      // racing it would grant first and the job would rightly report already_granted).
      cards.processor.pauseWebhooks();
      expect(await renew()).to.include({ charged: 1, granted: 1 });
      cards.processor.resumeWebhooks();
      expect(await renew()).to.include({ charged: 0 });
      await creditsAre(token, 210);
      expect(chargeAttempts().length - before).to.equal(1);
      expect((await balance(token)).card.renewals[0]).to.include({ renewals_attempted: 1 });
      // The renewal's own webhook arrives too: nothing more.
      const renewalEvent = (cards.processor.events() as unknown as Event[]).filter((e) => e.type === 'payment_intent.succeeded' && (e.data.object.metadata as Record<string, string>).kind === 'card_renewal').pop() as Event;
      await until(() => delivered(renewalEvent.id), 10_000, 'the renewal webhook');
      expect((await balance(token)).credits_remaining).to.equal(210);
    });

    it('grants nothing for a declined renewal and never retries it', async function () {
      const { token, sessionId } = await autoRefillBundle('builder');
      const session = await createStripeClient(cards.stack.config.cards)!.checkout.sessions.retrieve(sessionId);
      const intent = await createStripeClient(cards.stack.config.cards)!.paymentIntents.retrieve(session.payment_intent as string);
      cards.processor.setSavedCardBehaviour(intent.payment_method as string, 'decline');
      const before = chargeAttempts().length;
      await makeDue();
      expect(await renew()).to.include({ charged: 1, failed: 1, granted: 0 });
      for (let i = 0; i < 3; i++) expect(await renew()).to.include({ charged: 0 });
      // Even an unfinished-looking charge is not charged again: its row is failed, not attempting.
      await cards.stack.deps.dataSource.query(`UPDATE card_renewal_charges SET attempted_at = now() - interval '1 hour'`);
      expect(await renew()).to.include({ charged: 0 });
      expect(chargeAttempts().length - before).to.equal(1);
      expect((await balance(token)).credits_remaining).to.equal(444);
      expect((await balance(token)).card.renewals[0].last_charge).to.include({ period: 1, status: 'failed' });
    });

    it('is charged by the worker\'s own job on the maintenance queue', async function () {
      const { token } = await autoRefillBundle('fleet');
      await makeDue();
      cards.processor.pauseWebhooks();
      const queue = new Queue(QUEUE.maintenance, { connection: { url: cards.stack.config.redis.url }, prefix: cards.stack.config.redis.queuePrefix });
      try {
        const job = await queue.add(CARD_RENEWALS_JOB, {});
        await until(async () => (await job.getState()) === 'completed', 15_000, 'the renewal job');
        expect((await queue.getJob(job.id as string))?.returnvalue).to.include({ charged: 1, granted: 1 });
      } finally {
        cards.processor.resumeWebhooks();
        await queue.close();
      }
      await creditsAre(token, 2 * 1176);
    });

    it('stops charging after a cancellation and keeps the credits granted', async function () {
      const { token } = await autoRefillBundle('starter');
      const cancel = await http().post('/api/card/renewal/cancel').set('X-BUNDLE-TOKEN', token).expect(200);
      expect(cancel.body).to.include({ cancelled: 1 });
      expect(cancel.body.renewals[0]).to.include({ status: 'cancelled', next_charge_at: null });
      expect((await http().post('/api/card/renewal/cancel').set('X-BUNDLE-TOKEN', token).expect(200)).body).to.include({ cancelled: 0 });
      const before = chargeAttempts().length;
      await cards.stack.deps.dataSource.query(`UPDATE card_renewals SET next_charge_at = now() - interval '1 minute'`);
      expect(await renew()).to.include({ charged: 0 });
      expect(chargeAttempts().length).to.equal(before);
      expect((await balance(token)).credits_remaining).to.equal(105);
      expect((await http().post('/api/card/renewal/cancel')).status).to.equal(401);
    });
  });

  it('spends the credits with X-BUNDLE-TOKEN on a basic session, never on deep', async function () {
    const res = await checkout({ pack: 'starter' });
    await payCheckout(res.body.checkout_url, SUCCESS_CARD);
    const token = res.body.bundle_token as string;
    await creditsAre(token, 105);
    const session = {
      wallet_address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      proposed_text: "Oh no, that's a rough week. Want me to call you tonight so we can sort the flights out together?",
      response_delay_seconds: 12,
      target_profile: 'grief-support-peer',
    };
    const basic = await http().post('/api/simulate').set('X-BUNDLE-TOKEN', token).send(session);
    expect(basic.status, JSON.stringify(basic.body)).to.equal(200);
    expect(basic.body.redemption).to.include({ credits_spent: 1, credits_remaining: 104 });
    const deep = await http().post('/api/simulate').set('X-BUNDLE-TOKEN', token).send({ ...session, tier: 'deep' });
    expect(deep.status).to.not.equal(200);
    expect((await balance(token)).credits_remaining).to.equal(104);
  });

  it('never puts the bundle token in a URL, a redirect or a log', async function () {
    const res = await checkout({ pack: 'starter', auto_refill: true });
    const token = res.body.bundle_token as string;
    const page = await payCheckout(res.body.checkout_url, SUCCESS_CARD);
    await creditsAre(token, 105);
    await http().post('/api/card/renewal/cancel').set('X-BUNDLE-TOKEN', token).expect(200);
    const session = await createStripeClient(cards.stack.config.cards)!.checkout.sessions.retrieve(res.body.checkout_session_id);
    const urls = [res.body.checkout_url, page.headers.get('location'), session.success_url, session.cancel_url, JSON.stringify(session.metadata)];
    expect(urls.filter((u) => u === null || u === undefined)).to.have.length(0);
    for (const u of urls) expect(u).to.not.contain(token);
    expect(cards.logs.length).to.be.greaterThan(5);
    expect(cards.logs.filter((line) => line.includes(token))).to.deep.equal([]);
    expect(JSON.stringify(cards.processor.events())).to.not.contain(token);
    const back = await http().get(new URL(page.headers.get('location') as string).pathname + new URL(page.headers.get('location') as string).search).expect(200);
    expect(back.text).to.contain('data-status="paid"').and.not.contain(token);
  });

  it('lists the packs over MCP and returns a checkout URL there without paying', async function () {
    const client = new Client({ name: 'card-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${cards.url}/api/mcp`)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).to.include.members(['card-packs', 'card-checkout']);
      const packs = (await client.callTool({ name: 'card-packs', arguments: {} })) as CallToolResult;
      expect((packs.structuredContent as { packs: Array<{ id: string }> }).packs.map((p) => p.id)).to.deep.equal(['starter', 'builder', 'fleet']);
      const refused = (await client.callTool({ name: 'card-checkout', arguments: { pack: 'starter', auto_refill: 'yes' } })) as CallToolResult;
      expect(refused.isError).to.equal(true);
      const charges = cards.processor.requests().filter((r) => r.path === '/v1/payment_intents').length;
      const started = (await client.callTool({ name: 'card-checkout', arguments: { pack: 'builder' } })) as CallToolResult;
      const body = started.structuredContent as { checkout_url: string; bundle_token: string; status: string };
      expect(body.status).to.equal('pending');
      expect(body.checkout_url).to.match(new RegExp(`^${cards.processor.url}/pay/cs_`));
      expect((await balance(body.bundle_token)).credits_remaining).to.equal(0);
      expect(cards.processor.requests().filter((r) => r.path === '/v1/payment_intents')).to.have.length(charges);
    } finally {
      await client.close();
    }
  });
});
