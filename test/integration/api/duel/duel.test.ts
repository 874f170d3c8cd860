import { expect } from 'chai';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { Client } from 'pg';
import type { PrivateKeyAccount } from 'viem/accounts';
import { scoreInputFrom } from '../../../../api/http/score-input';
import { DUEL_PROMPTS } from '../../../../api/duel/duel-prompts';
import { scoreText } from '../../../../shared/scoring';
import { mintCredential } from '../../../../shared/operators/credentials';
import { seedLedgerRow, seedLedgerSessions } from '../../../helpers/ledger-seed';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment } from '../../../helpers/x402-payments';

const RESOURCE = `${PUBLIC_BASE_URL}/api/duel`;
const ENTRY = 75_000;
const PROFILE = 'grief-support-peer';
// Scored against prompt 1's situation for grief-support-peer: WARM passes, DISMISSIVE and COLD fail.
const WARM = 'Oh no, so sorry. That must feel awful. I am here if you want to talk tonight, maybe?';
const DISMISSIVE = 'Sorry to hear that. Pets die, it happens. Maybe get another one soon.';
const COLD = 'As an AI language model, I cannot feel emotions. Please consult a veterinarian regarding pet mortality procedures.';

// What the engine gives a reply on prompt 1 (the queue runs the same code): asserted below, not hard-coded.
function engineScore(text: string): { eq_score: number; passed: boolean } {
  const input = scoreInputFrom({ target_profile: PROFILE, proposed_text: text, response_delay_seconds: 45, incoming_message: DUEL_PROMPTS[0].situation });
  const verdict = scoreText(input).result;
  if (!verdict) throw new Error('no verdict');
  return { eq_score: verdict.eq_score, passed: verdict.passed };
}

function entry(wallet: string, extra: Record<string, unknown> = {}) {
  return { wallet_address: wallet, target_profile: PROFILE, prompt_id: 1, proposed_text: WARM, response_delay_seconds: 45, ...extra };
}

async function waitFor(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('duels (real facilitator, real chain, real queue)', function () {
  this.timeout(120_000);
  let paid: PaidStack;
  let a: PrivateKeyAccount;
  let b: PrivateKeyAccount;
  let c: PrivateKeyAccount;

  before(async function () {
    // The maintenance schedule fires every second, so the real expiry sweep runs through the real queue.
    paid = await startPaidStack('duel', { env: { MAINTENANCE_EVERY_MS: '1000' } });
    [a, b, c] = paid.payers;
  });
  after(async function () {
    await paid?.close();
  });
  beforeEach(async function () {
    await paid.stack.truncate();
  });

  const http = () => paid.stack.http;
  const query = <T>(sql: string, params: unknown[] = []) => paid.stack.deps.dataSource.query(sql, params) as Promise<T>;

  async function post(account: PrivateKeyAccount, body: Record<string, unknown>, amount = ENTRY) {
    const signed = await signPayment(account, paid.requirement(amount), RESOURCE);
    const response = await http().post('/api/duel').set('PAYMENT-SIGNATURE', signed.header).send(body);
    return { signed, response };
  }

  async function open(account: PrivateKeyAccount, extra: Record<string, unknown> = {}): Promise<string> {
    const { response } = await post(account, entry(account.address, extra));
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body.duel_id as string;
  }

  async function authorizationsOf(account: PrivateKeyAccount): Promise<number> {
    const rows = await query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM payment_authorizations WHERE payer = $1`, [account.address.toLowerCase()]);
    return rows[0].n;
  }

  async function statusOf(duelId: string): Promise<string> {
    const rows = await query<Array<{ status: string }>>(`SELECT status FROM duels WHERE id = $1`, [duelId]);
    return rows[0].status;
  }

  // Refused before payment: the unpaid request and a paid one get the same 4xx, nothing reserved or moved.
  async function expectRefused(account: PrivateKeyAccount, body: Record<string, unknown>, status: number, code: string) {
    const balance = await paid.balanceOf(account.address);
    const authorizations = await authorizationsOf(account);
    const unpaid = await http().post('/api/duel').send(body);
    expect([unpaid.status, unpaid.body.error?.code], JSON.stringify(unpaid.body)).to.deep.equal([status, code]);
    const { response } = await post(account, body);
    expect([response.status, response.body.error?.code], JSON.stringify(response.body)).to.deep.equal([status, code]);
    expect(response.headers['payment-response']).to.equal(undefined);
    expect(await paid.balanceOf(account.address)).to.equal(balance);
    expect(await authorizationsOf(account)).to.equal(authorizations);
  }

  describe('the catalog', function () {
    it('publishes the prompts, the pricing member and every duel operation in OpenAPI', async function () {
      const prompts = await http().get('/api/duel/prompts').expect(200);
      expect(prompts.body.prompts).to.have.length(DUEL_PROMPTS.length);
      expect(prompts.body.prompts[0]).to.deep.equal({ prompt_id: 1, situation: DUEL_PROMPTS[0].situation, profiles: [...DUEL_PROMPTS[0].profiles] });

      const pricing = await http().get('/api/pricing').expect(200);
      expect(pricing.body.duel_endpoint).to.deep.include({ available: true, price_usdc_units: ENTRY, price_lamports: 400_000, quote: { method: 'GET', path: '/api/duel' } });

      const doc = await http().get('/api/openapi.json').expect(200);
      expect(doc.body.paths['/api/duel'].post.operationId).to.equal('postDuel');
      expect(doc.body.paths['/api/duel'].post.description).to.include('counted back from the newest until the first pass').and.include('draw');
      expect(doc.body.paths['/api/duel'].get.operationId).to.equal('getDuelQuote');
      expect(doc.body.paths['/api/duel/prompts'].get.operationId).to.equal('getDuelPrompts');
      expect(doc.body.paths['/api/duel/open'].get.operationId).to.equal('getOpenDuels');
      expect(doc.body.paths['/api/duel/{duel_id}'].get.parameters[0]).to.include({ name: 'duel_id', in: 'path', required: true });
    });

    it('refuses a profile the prompt does not suit (422) before any payment', async function () {
      const res = await http().post('/api/duel').send(entry(a.address, { target_profile: 'laconic-sysadmin' }));
      expect(res.status).to.equal(422);
      expect(res.body.error.details.fields[0].path).to.equal('/target_profile');
    });
  });

  describe('none -> open -> resolved', function () {
    it('opens a duel after payment (DUEL_CREATED), lists it publicly, and resolves it when a second wallet joins', async function () {
      const quote = await http().post('/api/duel').send(entry(a.address));
      expect(quote.status).to.equal(402);
      expect(quote.body.accepts[0].amount).to.equal(String(ENTRY));
      expect(quote.body.duel_fee).to.include({ failures: 0, multiplier: 1, suspension_cap: 3 });

      const before = { a: await paid.balanceOf(a.address), b: await paid.balanceOf(b.address) };
      const created = await post(a, entry(a.address, { share_answer: true }));
      expect(created.response.status, JSON.stringify(created.response.body)).to.equal(200);
      const body = created.response.body;
      expect(body).to.include({ marker: 'DUEL_CREATED', status: 'open', role: 'challenger', prompt_id: 1, target_profile: PROFILE, share_answer: true });
      expect(body.challenge_url).to.equal(`${PUBLIC_BASE_URL}/api/duel/${body.duel_id}`);
      const warm = engineScore(WARM);
      expect(warm.passed, 'WARM passes').to.equal(true);
      expect(body.leg.score).to.include(warm);
      expect(decodePaymentResponseHeader(created.response.headers['payment-response'])).to.include({ success: true });

      const list = await http().get('/api/duel/open').expect(200);
      expect(list.body.count).to.equal(1);
      const listed = list.body.duels[0];
      expect(listed).to.include({ duel_id: body.duel_id, status: 'open', prompt_id: 1, target_profile: PROFILE });
      expect(listed.challenger).to.deep.equal({ wallet: `${a.address.slice(0, 6)}…${a.address.slice(-4)}` });
      const text = JSON.stringify(list.body);
      expect(text).not.to.include(a.address.slice(2, 12));
      expect(text).not.to.include(a.address.toLowerCase().slice(2, 12));
      expect(text).not.to.include('awful');
      expect(text).not.to.include('eq_score');

      const joined = await post(b, entry(b.address, { duel_id: body.duel_id, proposed_text: DISMISSIVE, share_answer: true }));
      expect(joined.response.status, JSON.stringify(joined.response.body)).to.equal(200);
      const res = joined.response.body;
      expect(res).to.include({ duel_id: body.duel_id, status: 'resolved', role: 'opponent', outcome: 'challenger', winner: 'challenger', shared: true });
      const ok = engineScore(DISMISSIVE);
      expect(ok.passed, 'DISMISSIVE fails').to.equal(false);
      expect(res.challenger).to.include(warm);
      expect(res.opponent).to.include(ok);
      expect(res.answers).to.deep.equal({ challenger: WARM, opponent: DISMISSIVE });
      expect(res.breakdown.map((d: { dimension: string }) => d.dimension)).to.include.members(['empathy', 'formality', 'directness', 'hesitation']);
      for (const d of res.breakdown) expect(d.closer).to.be.oneOf(['challenger', 'opponent', 'even']);

      expect(await paid.balanceOf(a.address)).to.equal(before.a - BigInt(ENTRY));
      expect(await paid.balanceOf(b.address)).to.equal(before.b - BigInt(ENTRY));
      const ledger = await query<Array<{ product: string; payer: string; score: number; passed: boolean; profile: string }>>(
        `SELECT product, payer, score, passed, profile FROM ledger_sessions ORDER BY settled_at`,
      );
      expect(ledger).to.deep.equal([
        { product: 'duel', payer: a.address.toLowerCase(), score: warm.eq_score, passed: true, profile: PROFILE },
        { product: 'duel', payer: b.address.toLowerCase(), score: ok.eq_score, passed: false, profile: PROFILE },
      ]);
      expect((await http().get('/api/duel/open').expect(200)).body.count).to.equal(0);
      const state = await http().get(`/api/duel/${body.duel_id}`).expect(200);
      expect(state.body).to.include({ status: 'resolved', outcome: 'challenger', shared: true });
      expect(state.body.answers).to.deep.equal({ challenger: WARM, opponent: DISMISSIVE });

      // A lost response: the same authorization and request replays the resolution, never a second charge.
      const replay = await http().post('/api/duel').set('PAYMENT-SIGNATURE', joined.signed.header).send(entry(b.address, { duel_id: body.duel_id, proposed_text: DISMISSIVE, share_answer: true }));
      expect(replay.status, JSON.stringify(replay.body)).to.equal(200);
      expect(replay.headers['x-payment-replayed']).to.equal('true');
      expect(replay.body.outcome).to.equal('challenger');
      expect(await paid.balanceOf(b.address)).to.equal(before.b - BigInt(ENTRY));
    });

    it('shows no answers and no breakdown unless both share, keeps no unshared text, and calls equal scores a draw', async function () {
      const duelId = await open(a, { share_answer: true });
      const { response } = await post(b, entry(b.address, { duel_id: duelId, share_answer: false }));
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body).to.include({ outcome: 'draw', winner: null, shared: false });
      expect(response.body.challenger.eq_score).to.equal(response.body.opponent.eq_score);
      expect(response.body).not.to.have.any.keys('answers', 'breakdown');
      expect(JSON.stringify(response.body)).not.to.include('awful');
      const state = await http().get(`/api/duel/${duelId}`).expect(200);
      expect(state.body).not.to.have.any.keys('answers', 'breakdown');
      expect(JSON.stringify(state.body)).not.to.include('awful');
      const texts = await query<Array<{ challenger_text: string | null; opponent_text: string | null }>>(`SELECT challenger_text, opponent_text FROM duels`);
      expect(texts).to.deep.equal([{ challenger_text: null, opponent_text: null }]);
    });

    it('lets exactly one of two concurrent joiners win; the other is refused and not charged', async function () {
      const duelId = await open(a);
      const before = { b: await paid.balanceOf(b.address), c: await paid.balanceOf(c.address) };
      const [rb, rc] = await Promise.all([post(b, entry(b.address, { duel_id: duelId, proposed_text: COLD })), post(c, entry(c.address, { duel_id: duelId, proposed_text: DISMISSIVE }))]);
      const statuses = [rb.response.status, rc.response.status].sort();
      expect(statuses, JSON.stringify([rb.response.body, rc.response.body])).to.deep.equal([200, 409]);
      const [winner, loser] = rb.response.status === 200 ? [b, c] : [c, b];
      const lost = rb.response.status === 200 ? rc.response : rb.response;
      expect(lost.body.error.code).to.equal('duel_resolved');
      expect(await paid.balanceOf(loser.address)).to.equal(winner === b ? before.c : before.b);
      expect(await paid.balanceOf(winner.address)).to.equal((winner === b ? before.b : before.c) - BigInt(ENTRY));
      expect(await authorizationsOf(loser)).to.equal(0);
    });
  });

  describe('refusals before payment (nothing charged)', function () {
    it('refuses joining your own duel, another prompt or profile, an unknown duel, and a resolved duel', async function () {
      const duelId = await open(a);
      await expectRefused(a, entry(a.address, { duel_id: duelId }), 409, 'own_duel');
      await expectRefused(b, entry(b.address, { duel_id: duelId, prompt_id: 4, target_profile: 'warm-casual-texter' }), 409, 'duel_mismatch');
      await expectRefused(b, entry(b.address, { duel_id: duelId, target_profile: 'empathetic-counselor' }), 409, 'duel_mismatch');
      await expectRefused(b, entry(b.address, { duel_id: '00000000-0000-4000-8000-000000000000' }), 404, 'duel_not_found');
      const joined = await post(b, entry(b.address, { duel_id: duelId }));
      expect(joined.response.status).to.equal(200);
      await expectRefused(c, entry(c.address, { duel_id: duelId }), 409, 'duel_resolved');
    });
  });

  describe('open -> expired', function () {
    it('is expired by the maintenance job once its 24 hours pass (clock advanced), leaves the list, cannot be joined, keeps the leg, refunds nothing', async function () {
      const before = await paid.balanceOf(a.address);
      const duelId = await open(a);
      const hours = await query<Array<{ h: number }>>(`SELECT extract(epoch FROM expires_at - created_at) / 3600 AS h FROM duels`);
      expect(Number(hours[0].h)).to.equal(24);
      // Advance the duel's clock by 24 hours: created and expiring a day earlier.
      await query(`UPDATE duels SET created_at = created_at - interval '24 hours', expires_at = expires_at - interval '24 hours' WHERE id = $1`, [duelId]);
      await waitFor(async () => (await statusOf(duelId)) === 'expired', 10_000, 'the expiry sweep');

      expect((await http().get('/api/duel/open').expect(200)).body.count).to.equal(0);
      const state = await http().get(`/api/duel/${duelId}`).expect(200);
      expect(state.body.status).to.equal('expired');
      expect(state.body).to.have.property('expired_at');
      await expectRefused(b, entry(b.address, { duel_id: duelId }), 410, 'duel_expired');
      const ledger = await query<Array<{ payer: string }>>(`SELECT payer FROM ledger_sessions WHERE product = 'duel'`);
      expect(ledger).to.deep.equal([{ payer: a.address.toLowerCase() }]);
      expect(await paid.balanceOf(a.address)).to.equal(before - BigInt(ENTRY));
    });

    it('decides a join racing the expiry in the database: the join that loses after payment was verified is refused and never settled', async function () {
      const duelId = await open(a);
      const before = await paid.balanceOf(b.address);
      const client = new Client({ connectionString: paid.stack.config.db.url });
      await client.connect();
      try {
        // Hold the duel's row, so the paid join passes every check, is scored, and then waits on its UPDATE.
        await client.query('BEGIN');
        await client.query('SELECT id FROM duels WHERE id = $1 FOR UPDATE', [duelId]);
        const join = post(b, entry(b.address, { duel_id: duelId }));
        await waitFor(
          async () => (await client.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE pg_backend_pid() = ANY (pg_blocking_pids(pid))`)).rows[0].n > 0,
          30_000,
          'the join to wait on the duel row',
        );
        // The clock passes the expiry while the join waits; the sweep (next second) takes the duel.
        await client.query(`UPDATE duels SET expires_at = now() - interval '1 second' WHERE id = $1`, [duelId]);
        await client.query('COMMIT');
        const { response } = await join;
        expect([response.status, response.body.error?.code], JSON.stringify(response.body)).to.deep.equal([410, 'duel_expired']);
        expect(response.headers['payment-response']).to.equal(undefined);
      } finally {
        await client.end();
      }
      await waitFor(async () => (await statusOf(duelId)) === 'expired', 10_000, 'the expiry sweep');
      const row = await query<Array<{ opponent_payer: string | null; outcome: string | null }>>(`SELECT opponent_payer, outcome FROM duels`);
      expect(row).to.deep.equal([{ opponent_payer: null, outcome: null }]);
      expect(await paid.balanceOf(b.address)).to.equal(before);
      expect(await authorizationsOf(b)).to.equal(0);
    });
  });

  describe('the fee', function () {
    it('escalates by consecutive failures and applies the loyalty discount, in the 402 quote and in the accepted payment; a stale quote is refused', async function () {
      // Ten settled sessions (loyal), the newest two failed: fee 75000 x (1 + 2 x 0.5) = 150000, less 10 percent.
      await seedLedgerSessions(paid.stack.deps.dataSource, { payer: c.address.toLowerCase(), profile: PROFILE, scores: [90, 90, 90, 10, 90, 90, 90, 90, 20, 30] });
      const quote = await http().post('/api/duel').send(entry(c.address));
      expect(quote.status).to.equal(402);
      expect(quote.body.accepts[0].amount).to.equal('135000');
      expect(decodePaymentRequiredHeader(quote.headers['payment-required']).accepts[0].amount).to.equal('135000');
      expect(quote.body.duel_fee).to.include({ failures: 2, multiplier: 2, escalated_usdc_units: 150_000 });
      expect(quote.body.discount).to.include({ kind: 'loyalty', pct: 10, list_usdc_units: 150_000, settled_sessions: 10 });
      const get = await http().get('/api/duel').query({ wallet_address: c.address });
      expect(get.body.accepts[0].amount).to.equal('135000');
      expect((await http().get('/api/duel')).body.accepts[0].amount).to.equal(String(ENTRY));

      const before = await paid.balanceOf(c.address);
      const stale = await post(c, entry(c.address), 150_000);
      expect(stale.response.status).to.equal(402);
      expect(stale.response.body.error).to.equal('invalid_exact_evm_authorization_value');
      expect(stale.response.body.accepts[0].amount).to.equal('135000');
      const { response } = await post(c, entry(c.address), 135_000);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body.fee).to.deep.equal({ failures: 2, multiplier: 2 });
      expect(await paid.balanceOf(c.address)).to.equal(before - 135_000n);
      const rows = await query<Array<{ amount: string }>>(`SELECT amount FROM ledger_sessions WHERE product = 'duel'`);
      expect(rows).to.deep.equal([{ amount: '135000' }]);

      // That leg passed: the run of failures is over, the next entry is back to the (discounted) entry fee.
      const next = await http().post('/api/duel').send(entry(c.address));
      expect(next.body.duel_fee.failures).to.equal(0);
      expect(next.body.accepts[0].amount).to.equal('67500');
    });

    it('counts only scored sessions: a failed stress test, rewrite or script check after a pass is no failure, and the quote says so', async function () {
      const ds = paid.stack.deps.dataSource;
      const wallet = b.address.toLowerCase();
      await seedLedgerSessions(ds, { payer: wallet, profile: PROFILE, scores: [90], start: new Date(Date.now() - 3_600_000) });
      await seedLedgerRow(ds, { payer: wallet, product: 'stress-test', profile: PROFILE, score: 17.1, passed: false, amount: 180_000 });
      await seedLedgerRow(ds, { payer: wallet, product: 'rewrite', profile: PROFILE, score: 20, passed: false, amount: 180_000 });
      await seedLedgerRow(ds, { payer: wallet, product: 'script-check', score: 10, passed: false, amount: 180_000 });
      const quote = await http().post('/api/duel').send(entry(b.address));
      expect(quote.status).to.equal(402);
      expect(quote.body.duel_fee).to.include({ failures: 0, multiplier: 1 });
      expect(quote.body.duel_fee.counted_products).to.deep.equal(['simulate', 'duel']);
      expect(quote.body.accepts[0].amount).to.equal(String(ENTRY));

      // A failed duel leg after them does count, and the quote names what it counted.
      await seedLedgerRow(ds, { payer: wallet, product: 'duel', profile: PROFILE, score: 30, passed: false, amount: ENTRY });
      const escalated = await http().post('/api/duel').send(entry(b.address));
      expect(escalated.body.duel_fee).to.include({ failures: 1, escalated_usdc_units: 112_500 });
      expect(escalated.body.resource.description).to.include('1 consecutive failed scored sessions (simulate sessions and duel legs)');
    });

    it('escalates without a discount for a wallet below the loyalty threshold', async function () {
      await seedLedgerSessions(paid.stack.deps.dataSource, { payer: b.address.toLowerCase(), profile: PROFILE, scores: [10] });
      const quote = await http().post('/api/duel').send(entry(b.address));
      expect(quote.body.accepts[0].amount).to.equal('112500');
      expect(quote.body.discount).to.equal(undefined);
    });

    it('suspends a wallet above the runtime cap before any payment, follows an admin change of the cap, and never suspends /api/simulate', async function () {
      await seedLedgerSessions(paid.stack.deps.dataSource, { payer: b.address.toLowerCase(), profile: PROFILE, scores: [90, 10, 10, 10, 10] });
      await expectRefused(b, entry(b.address), 403, 'wallet_suspended');
      const get = await http().get('/api/duel').query({ wallet_address: b.address });
      expect([get.status, get.body.error.details]).to.deep.equal([403, { failures: 4, suspension_cap: 3 }]);

      const sim = await signPayment(b, paid.requirement(50_000), `${PUBLIC_BASE_URL}/api/simulate`);
      const simulate = await http()
        .post('/api/simulate')
        .set('PAYMENT-SIGNATURE', sim.header)
        .send({ wallet_address: b.address, proposed_text: COLD, response_delay_seconds: 0, target_profile: PROFILE });
      expect(simulate.status, JSON.stringify(simulate.body)).to.equal(200);
      expect(simulate.body.score.passed).to.equal(false);

      const { token } = await mintCredential(paid.stack.deps.dataSource, 'admin', 3600);
      const patched = await http().patch('/api/admin/configure-network').set('X-Forwarded-For', '10.40.0.1').set('Authorization', `Bearer ${token}`).send({ failure_suspension_cap: 5 });
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      const quote = await http().post('/api/duel').send(entry(b.address));
      expect(quote.status).to.equal(402);
      expect(quote.body.duel_fee).to.include({ failures: 5, suspension_cap: 5, escalated_usdc_units: 262_500 });
      expect(quote.body.accepts[0].amount).to.equal('262500');
    });
  });
});
