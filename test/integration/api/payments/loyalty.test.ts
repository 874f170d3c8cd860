import { expect } from 'chai';
import { buildChallenge } from '../../../../api/payments/challenge';
import { quoteFor } from '../../../../api/payments/loyalty';
import { PRODUCTS } from '../../../../shared/products';
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
});
