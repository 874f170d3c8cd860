import { expect } from 'chai';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { compileBodySchema } from '../../../../api/http/ajv';
import { simulateRequestSchema } from '../../../../api/simulate/simulate.schema';
import { mintCredential } from '../../../../shared/operators/credentials';
import { PRODUCTS } from '../../../../shared/products';
import { simulateBody } from '../../../fixtures/builders';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { startTestStack, type TestStack } from '../../../helpers/stack';
import { signPayment, type SignedPayment } from '../../../helpers/x402-payments';
import { runProofCardRefresh } from '../../../helpers/proof-card-refresh';

const RESOURCE = `${PUBLIC_BASE_URL}/api/simulate`;
const VIA = '/api/simulate?via=proof-card';
const BASIC = 50_000;

const ZERO_COUNTS = {
  payment_challenges: 0,
  payment_retries: 0,
  successful_invocations: 0,
  verified_settlements: 0,
  payment_verifications: 0,
  payment_settlements: 0,
  deliveries: 0,
  second_paid_calls: 0,
  test_or_canary_invocations: 0,
  repeat_buyers: 0,
};

/** The counters of a card's evidence, without the timings. */
function countsOf(evidence: Record<string, unknown>) {
  return Object.fromEntries(Object.keys(ZERO_COUNTS).map((k) => [k, evidence[k]]));
}

describe('proof cards: evidence counted as the payment pipeline runs', function () {
  this.timeout(90_000);
  let paid: PaidStack;
  let operatorToken: string;
  /** Everything the script put in that must never appear in a card. */
  const secrets: Array<{ what: string; value: string }> = [];

  const http = () => paid.stack.http;
  const maintenanceQueue = () => paid.stack.deps.queues.find((q) => q.name === 'maintenance')!;

  async function paidPost(path: string, body: object, signed: SignedPayment, headers: Record<string, string> = {}) {
    const res = await http().post(path).set({ ...headers, 'PAYMENT-SIGNATURE': signed.header }).send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    secrets.push({ what: 'transaction', value: decodePaymentResponseHeader(res.headers['payment-response'] as string).transaction });
    secrets.push({ what: 'signature header', value: signed.header }, { what: 'nonce', value: signed.nonce });
    return res;
  }

  before(async function () {
    // A refresh interval far longer than the suite: the snapshot changes only when the test says so.
    paid = await startPaidStack('proof-cards', { env: { PROOF_CARD_REFRESH_MS: '3600000' } });
    await paid.stack.truncate();
    operatorToken = (await mintCredential(paid.stack.deps.dataSource, 'operator', 3600, 'canary')).token;
    secrets.push({ what: 'operator token', value: operatorToken });
    const [a, b] = paid.payers;
    secrets.push({ what: 'wallet', value: a.address }, { what: 'wallet', value: b.address });

    // Discoveries: the card alone, the list, and a canary view (not counted).
    expect((await http().get('/api/proof-cards/simulate')).status).to.equal(200);
    expect((await http().get('/api/proof-cards')).status).to.equal(200);
    expect((await http().get('/api/proof-cards/simulate').set('Authorization', `Bearer ${operatorToken}`)).status).to.equal(200);

    // 1. The unpaid POST from the card's copyable request: 402. An invalid credential is ignored (no canary, no 401).
    const first = simulateBody(a.address);
    secrets.push({ what: 'submitted text', value: first.proposed_text });
    const challenge = await http().post(VIA).set('Authorization', 'Bearer hlo_not-a-valid-token-at-all-000000000000000000').send(first);
    expect(challenge.status).to.equal(402);
    // 2. The signed retry: verified, worked, settled, delivered.
    const signed = await signPayment(a, paid.requirement(BASIC), RESOURCE);
    const delivered = await paidPost(VIA, first, signed);
    // 3. A replay of the same payment and request: the stored result again, not a new delivery.
    const replay = await http().post('/api/simulate').set('PAYMENT-SIGNATURE', signed.header).send(first);
    expect(replay.status).to.equal(200);
    expect(replay.headers['x-payment-replayed']).to.equal('true');
    expect(replay.body.result_id).to.equal(delivered.body.result_id);
    // 4. The same wallet's second paid call, again from the card.
    const second = simulateBody(a.address, { proposed_text: 'Ugh, that is a lot. Do you want to talk it through tonight, or should I just handle the rebooking?' });
    secrets.push({ what: 'submitted text', value: second.proposed_text });
    await paidPost(VIA, second, await signPayment(a, paid.requirement(BASIC), RESOURCE));
    // 5. A canary call (an operator credential): the 402 and the paid call are served normally and ledgered...
    const canaryBody = simulateBody(b.address, { proposed_text: 'Canary: that sounds exhausting. Want me to take the rebooking off your plate?' });
    secrets.push({ what: 'submitted text', value: canaryBody.proposed_text });
    const canaryChallenge = await http().post(VIA).set('Authorization', `Bearer ${operatorToken}`).send(canaryBody);
    expect(canaryChallenge.status).to.equal(402);
    await paidPost(VIA, canaryBody, await signPayment(b, paid.requirement(BASIC), RESOURCE), { Authorization: `Bearer ${operatorToken}` });
    // ...and the canary's wallet is no buyer yet: its first real paid call is a first call, not a second.
    const realB = simulateBody(b.address, { proposed_text: 'Oof. I am sorry it went that way. Want a hand with the refund form?' });
    secrets.push({ what: 'submitted text', value: realB.proposed_text });
    await paidPost('/api/simulate', realB, await signPayment(b, paid.requirement(BASIC), RESOURCE));

    expect(await paid.count('ledger_sessions')).to.equal(4);
    await runProofCardRefresh(maintenanceQueue());
  });
  after(async function () {
    await paid?.close();
  });

  it('counts the scripted sequence exactly, with the canary apart', async function () {
    const res = await http().get('/api/proof-cards/simulate');
    expect(res.status).to.equal(200);
    const { evidence } = res.body;
    expect(countsOf(evidence)).to.deep.equal({
      payment_challenges: 1, // the unpaid POST (the canary's 402 is not counted)
      payment_retries: 4, // the signed retry, its replay, the second call, payer B's real call
      payment_verifications: 3, // one per new authorization: the replay verifies nothing
      payment_settlements: 3,
      verified_settlements: 3,
      successful_invocations: 3,
      deliveries: 3, // the replay is not a delivery
      second_paid_calls: 1, // A's second call; B's real call is B's first
      repeat_buyers: 1,
      test_or_canary_invocations: 2, // the canary's 402 and its paid call
    });
    expect(evidence.attribution).to.deep.equal({ proof_discoveries: 2, proof_to_successful_call: 2, proof_to_second_paid_call: 1 });
    expect(evidence.latency_ms.p50).to.be.a('number').that.is.greaterThan(0);
    expect(evidence.latency_ms.p95).to.be.a('number').that.is.at.least(evidence.latency_ms.p50);
    expect(Date.now() - Date.parse(evidence.freshest_success_at)).to.be.within(0, 120_000);
  });

  it('lists one card per served paid product, every other card with nothing counted but its discovery', async function () {
    const res = await http().get('/api/proof-cards');
    expect(res.status).to.equal(200);
    const ids = res.body.cards.map((c: { id: string }) => c.id);
    expect(ids).to.include.members(['simulate', 'stress-test', 'progress', 'training-dataset', 'rewrite', 'script-check', 'bundle']);
    expect(ids).to.deep.equal(Object.values(PRODUCTS).map((p) => p.id).filter((id) => ids.includes(id)));
    const stress = res.body.cards.find((c: { id: string }) => c.id === 'stress-test');
    expect(countsOf(stress.evidence)).to.deep.equal(ZERO_COUNTS);
    expect(stress.evidence.attribution).to.deep.equal({ proof_discoveries: 1, proof_to_successful_call: 0, proof_to_second_paid_call: 0 });
    expect(stress.evidence.latency_ms).to.deep.equal({ p50: null, p95: null });
    expect(stress.evidence.freshest_success_at).to.equal(null);
    expect(res.body.corpus_evidence).to.include({ url: `${PUBLIC_BASE_URL}/api/corpus/evidence` });
    expect(res.body.corpus_evidence.scope).to.be.a('string').and.not.empty;
    expect(res.body.privacy).to.be.a('string').and.not.empty;
    expect(res.body.generated_at).to.equal(res.body.cards[0].freshness.card_generated_at);
  });

  it('describes the product: the very request schema, an example it accepts, the live price and how to pay', async function () {
    const { body: card } = await http().get('/api/proof-cards/simulate');
    expect(card).to.include({ id: 'simulate', endpoint: '/api/simulate', method: 'POST' });
    expect(card.request_schema).to.deep.equal(JSON.parse(JSON.stringify(simulateRequestSchema)));
    const doc = await http().get('/api/openapi.json');
    expect(card.request_schema).to.deep.equal(doc.body.paths['/api/simulate'].post.requestBody.content['application/json'].schema);
    const one = doc.body.paths['/api/proof-cards/{slug}'].get;
    expect(one.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).to.deep.equal(['path:slug', 'query:format']);
    expect(Object.keys(one.responses['200'].content)).to.deep.equal(['application/json', 'text/markdown', 'text/html']);
    expect(doc.body.paths['/api/proof-cards'].get.responses['200'].content['application/json'].schema.required).to.include('corpus_evidence');
    expect(card.current_price).to.include({ base_usdc_micro: 50_000, base_lamports: 270_000, priced_endpoint: 'POST /api/simulate' });
    expect(Date.now() - Date.parse(card.current_price.quoted_at)).to.be.within(0, 10_000);
    expect(card.freshness.metrics_window).to.include({ days: 30, granularity: 'utc_day' });
    expect(card.copyable_request).to.include({ method: 'POST', url: `${PUBLIC_BASE_URL}/api/simulate?via=proof-card` });
    expect(card.copyable_request.body).to.deep.equal(card.realistic_example);
    expect(card.payment_flow.map((s: { step: number }) => s.step)).to.deep.equal([1, 2, 3, 4, 5, 6]);
    expect(card.payment_flow[2].action).to.match(/PAYMENT-SIGNATURE/);
    expect(card.counting_note).to.match(/test_or_canary_invocations/);

    // Every card's example is a request its endpoint accepts.
    const { body: list } = await http().get('/api/proof-cards');
    expect(list.cards.length).to.be.at.least(7);
    const rejected = list.cards.filter((c: { request_schema: object; realistic_example: object }) => !compileBodySchema(c.request_schema)(structuredClone(c.realistic_example)));
    expect(rejected.map((c: { id: string }) => c.id)).to.deep.equal([]);
  });

  it('quotes the live base fee after an admin changes it', async function () {
    await paid.stack.deps.dataSource.query(`INSERT INTO network_config (simulate_base_lamports, failure_suspension_cap) VALUES (300000, 3)`);
    try {
      await paid.stack.deps.network.refresh();
      const { body: card } = await http().get('/api/proof-cards/simulate');
      expect(card.current_price).to.include({ base_lamports: 300_000, base_usdc_micro: 50_000 });
    } finally {
      await paid.stack.deps.dataSource.query(`DELETE FROM network_config`);
      await paid.stack.deps.network.refresh();
    }
  });

  it('renders Markdown with format=markdown, answers 422 for another format and 404 for an unknown slug', async function () {
    const md = await http().get('/api/proof-cards/simulate?format=markdown');
    expect(md.status).to.equal(200);
    expect(md.headers['content-type']).to.match(/^text\/markdown/);
    expect(md.text).to.match(/^# Proof card: POST \/api\/simulate\n/);
    expect(md.text).to.include('| deliveries | 3 |');
    expect(md.text).to.include('| test_or_canary_invocations | 2 |');
    expect(md.text).to.include(`curl -i -X POST '${PUBLIC_BASE_URL}/api/simulate?via=proof-card'`);

    const page = await http().get('/api/proof-cards/simulate?format=html');
    expect(page.status).to.equal(200);
    expect(page.headers['content-type']).to.match(/^text\/html/);
    expect(page.text).to.match(/<h1>POST \/api\/simulate<\/h1>/);
    // The price as money; no lamports where the SOL rail is not configured (this stack has none).
    expect(page.text).to.include('<b>0.05 USDC</b>').and.include('0.05 USDC for POST /api/simulate, quoted at ');
    expect(page.text).to.include('Other tiers: deep: 0.18 USDC (180000 USDC units).').and.not.include('lamports');
    expect(page.text).to.include('<tr><td>Answers delivered</td><td class="num">3</td></tr>');
    expect(page.text).to.include(`curl -i -X POST &#39;${PUBLIC_BASE_URL}/api/simulate?via=proof-card&#39;`);

    const bad = await http().get('/api/proof-cards/simulate?format=xml');
    expect(bad.status).to.equal(422);
    expect(bad.body.error.details.fields.map((f: { path: string }) => f.path)).to.deep.equal(['/format']);
    const unknown = await http().get('/api/proof-cards/no-such-product');
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error.code).to.equal('proof_card_not_found');
  });

  it('shows no wallet, transaction, token or submitted text in JSON, Markdown or HTML', async function () {
    const texts = [
      (await http().get('/api/proof-cards')).text,
      (await http().get('/api/proof-cards/simulate')).text,
      (await http().get('/api/proof-cards/simulate?format=markdown')).text,
      (await http().get('/api/proof-cards/simulate?format=html')).text,
    ];
    expect(secrets.length).to.be.greaterThan(15);
    const leaks = texts.flatMap((text, i) => secrets.filter((s) => text.toLowerCase().includes(s.value.toLowerCase())).map((s) => `${i}: ${s.what}`));
    expect(leaks).to.deep.equal([]);
  });

  it('counts one payment re-sent ten times at once as one settlement, one invocation and one delivery, as the ledger does', async function () {
    const evidenceNow = async () => {
      await runProofCardRefresh(maintenanceQueue());
      return countsOf((await http().get("/api/proof-cards/simulate")).body.evidence) as Record<string, number>;
    };
    const before = await evidenceNow();
    const ledgerBefore = await paid.count('ledger_sessions');
    const body = simulateBody(paid.payers[4].address, { proposed_text: 'That sounds like a rough week. Want me to move the meeting so you can rest?' });
    secrets.push({ what: 'submitted text', value: body.proposed_text });
    const signed = await signPayment(paid.payers[4], paid.requirement(BASIC), RESOURCE);
    const answers = await Promise.all(Array.from({ length: 10 }, () => http().post('/api/simulate').set('PAYMENT-SIGNATURE', signed.header).send(body)));
    // Every call that was answered 200 delivered the one result; the others saw the payment in use.
    expect(answers.filter((r) => r.status === 200).length).to.be.at.least(1);
    for (const r of answers) expect([200, 409, 504], JSON.stringify(r.body)).to.include(r.status);
    expect((await paid.count('ledger_sessions')) - ledgerBefore).to.equal(1);
    const after = await evidenceNow();
    expect({
      payment_verifications: after.payment_verifications - before.payment_verifications,
      payment_settlements: after.payment_settlements - before.payment_settlements,
      verified_settlements: after.verified_settlements - before.verified_settlements,
      successful_invocations: after.successful_invocations - before.successful_invocations,
      deliveries: after.deliveries - before.deliveries,
    }).to.deep.equal({ payment_verifications: 1, payment_settlements: 1, verified_settlements: 1, successful_invocations: 1, deliveries: 1 });
  });

  describe('in another web process', function () {
    let other: TestStack;
    before(async function () {
      const f = paid.facilitator;
      other = await startTestStack('proof-cards-other', {
        worker: false,
        env: { PUBLIC_BASE_URL, X402_FACILITATOR_URL: paid.proxy.url, X402_NETWORK: f.network, USDC_ASSET_ADDRESS: f.asset, TREASURY_EVM_ADDRESS: f.treasury },
      });
    });
    after(async function () {
      await other?.close();
    });

    it('reads the same counters after a restart, rebuilding the snapshot when none is stored', async function () {
      await runProofCardRefresh(maintenanceQueue());
      const before = (await http().get('/api/proof-cards/simulate')).body;
      await other.deps.dataSource.query(`DELETE FROM proof_card_snapshots`);
      const after = (await other.http.get('/api/proof-cards/simulate')).body;
      expect(after.freshness.card_generated_at > before.freshness.card_generated_at).to.equal(true);
      // The same counts, plus the discovery the first read made.
      const seenOnce = { ...before.evidence.attribution, proof_discoveries: before.evidence.attribution.proof_discoveries + 1 };
      expect(after.evidence).to.deep.equal({ ...before.evidence, attribution: seenOnce });
    });

    it('counts every event once when several web processes take requests at once', async function () {
      const countOf = async () => {
        await runProofCardRefresh(maintenanceQueue());
        return (await http().get('/api/proof-cards/stress-test')).body.evidence.payment_challenges as number;
      };
      const start = await countOf();
      const body = { wallet_address: paid.payers[3].address, proposed_text: 'Sorry to hear it. Want help?', response_delay_seconds: 20 };
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? http() : other.http).post('/api/stress-test').send(body)));
      expect(answers.map((r) => r.status)).to.deep.equal(Array(12).fill(402));
      expect(await countOf()).to.equal(start + 12);
    });
  });
});
