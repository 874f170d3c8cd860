import { expect } from 'chai';
import { exampleOf } from '../../../../api/discovery/schema-example';
import { buildChallenge } from '../../../../api/payments/challenge';
import { quoteFor } from '../../../../api/payments/loyalty';
import { PRODUCTS } from '../../../../shared/products';
import { apiOperations } from '../../../../api/routes';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment } from '../../../helpers/x402-payments';

const SIMULATE_URL = `${PUBLIC_BASE_URL}/api/simulate`;

describe('the legacy loyalty discount in the live quote', function () {
  this.timeout(60_000);
  let paid: PaidStack;

  before(async function () {
    paid = await startPaidStack('loyalty');
    await paid.stack.truncate();
  });
  after(async function () {
    await paid?.close();
  });

  async function settleSessions(n: number, payer = paid.payers[5]) {
    for (let i = 0; i < n; i++) {
      const signed = await signPayment(payer, paid.requirement(50_000), SIMULATE_URL);
      const res = await paid.stack.http
        .post('/api/simulate')
        .set('PAYMENT-SIGNATURE', signed.header)
        .send({ wallet_address: payer.address, proposed_text: `Sure, I can look at it after lunch (${i}).`, response_delay_seconds: 30, target_profile: 'dry-witted-colleague' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
  }

  it('takes 10 percent off from the 10th settled session, says so in the quote, and never discounts simulate', async function () {
    const wallet = paid.payers[5].address;
    const ds = paid.stack.deps.dataSource;
    await settleSessions(9);
    const nine = await quoteFor(ds, PRODUCTS.stressTest, undefined, wallet);
    expect(nine.price).to.deep.equal({ usdcUnits: 180_000, lamports: 950_000 });
    expect(nine.discount).to.equal(undefined);

    await settleSessions(1);
    const ten = await quoteFor(ds, PRODUCTS.stressTest, undefined, wallet.toLowerCase());
    expect(ten.price).to.deep.equal({ usdcUnits: 162_000, lamports: 855_000 });
    expect(ten.discount).to.deep.equal({
      kind: 'loyalty',
      pct: 10,
      list_usdc_units: 180_000,
      list_lamports: 950_000,
      settled_sessions: 10,
      threshold_sessions: 10,
    });
    const { body } = buildChallenge(paid.stack.config.payments, ten, `${PUBLIC_BASE_URL}/api/stress-test`, 'payment_required');
    expect((body.accepts as Array<{ amount: string }>)[0].amount).to.equal('162000');
    expect(body.discount).to.deep.include({ kind: 'loyalty', pct: 10 });

    expect((await quoteFor(ds, PRODUCTS.simulate, 'deep', wallet)).price.usdcUnits).to.equal(180_000);
    expect((await quoteFor(ds, PRODUCTS.bundle, 'bundle', wallet)).discount).to.equal(undefined);
    expect((await quoteFor(ds, PRODUCTS.stressTest, undefined, undefined)).discount).to.equal(undefined);
    expect((await quoteFor(ds, PRODUCTS.stressTest, undefined, paid.payers[6].address)).discount).to.equal(undefined);
  });

  it('replays the purchase that crossed the threshold with its authorization, though the quote moved since', async function () {
    const payer = paid.payers[7];
    await settleSessions(9, payer);
    const quoted = await paid.stack.http.get(`/api/script-check?wallet_address=${payer.address}`);
    expect(quoted.status).to.equal(402);
    const requirement = (quoted.body as { accepts: Array<{ amount: string }> }).accepts[0];
    expect(requirement.amount).to.equal('180000');
    const signed = await signPayment(payer, paid.requirement(180_000), `${PUBLIC_BASE_URL}/api/script-check`);
    const body = { wallet_address: payer.address, reply_text: 'Thanks for waiting. Your refund is on its way and should land in three days.', approved_facts: ['Refunds land within three days.'] };
    const before = await paid.balanceOf(payer.address);
    const first = await paid.stack.http.post('/api/script-check').set('PAYMENT-SIGNATURE', signed.header).send(body);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    // The tenth settled session moved this wallet's quote.
    const now = await paid.stack.http.get(`/api/script-check?wallet_address=${payer.address}`);
    expect((now.body as { accepts: Array<{ amount: string }> }).accepts[0].amount).to.equal('162000');

    const again = await paid.stack.http.post('/api/script-check').set('PAYMENT-SIGNATURE', signed.header).send(body);
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.headers['x-payment-replayed']).to.equal('true');
    expect(again.body).to.deep.equal(first.body);
    expect(before - (await paid.balanceOf(payer.address))).to.equal(180_000n);
    expect(await paid.count('ledger_sessions')).to.equal(10 + 9 + 1);
  });

  it('quotes each paid product on GET exactly as its unpaid POST challenges, for a loyal wallet', async function () {
    const wallet = paid.payers[5].address;
    const served = new Set(apiOperations(paid.stack.config).map((op) => `${op.method.toUpperCase()} ${op.path}`));
    const products = Object.values(PRODUCTS).filter((p) => served.has(`POST ${p.path}`) && served.has(`GET ${p.path}`));
    expect(products.length).to.be.greaterThan(8);
    let discounted = 0;
    for (const product of products) {
      const op = apiOperations(paid.stack.config).find((o) => o.method.toUpperCase() === 'POST' && o.path === product.path)!;
      const body: Record<string, unknown> = { ...(exampleOf(op.body as Record<string, unknown>) as Record<string, unknown>), wallet_address: wallet };
      const tier = typeof body.tier === 'string' ? body.tier : typeof body.plan === 'string' ? body.plan : undefined;
      const post = await paid.stack.http.post(product.path).send(body);
      expect(post.status, `${product.path} POST ${JSON.stringify(post.body)}`).to.equal(402);
      const query = new URLSearchParams({ ...(product.loyaltyDiscount ? { wallet_address: wallet } : {}), ...(tier ? { [typeof body.plan === 'string' ? 'plan' : 'tier']: tier } : {}) });
      const get = await paid.stack.http.get(`${product.path}?${query}`);
      expect(get.status, `${product.path} GET ${JSON.stringify(get.body)}`).to.equal(402);
      const amounts = (r: { body: { accepts: Array<{ amount: string }> } }) => r.body.accepts.map((a) => a.amount);
      expect(amounts(get), product.path).to.deep.equal(amounts(post));
      expect((get.body as { discount?: unknown }).discount, product.path).to.deep.equal((post.body as { discount?: unknown }).discount);
      if ((post.body as { discount?: unknown }).discount) discounted += 1;
    }
    // Every loyalty product was quoted at its discount; the comparison above is not between list prices.
    expect(discounted).to.equal(products.filter((p) => p.loyaltyDiscount).length);
  });
});
