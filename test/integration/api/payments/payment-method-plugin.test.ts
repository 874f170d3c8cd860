import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { privateKeyToAccount } from 'viem/accounts';
import { AppError } from '../../../../shared/errors';
import { PAYMENT_METHODS, type PaymentMethod } from '../../../../api/payments/methods';
import { startTestStack, type TestStack } from '../../../helpers/stack';

// A way to pay that exists only in this test: a voucher in its own header. It is registered by the
// dependencies alone; nothing in the pipeline, the routes, the OpenAPI builder, CORS or the proof
// cards names it, so it shows that a method carries everything about itself.
const VOUCHER_HEADER = 'X-TEST-VOUCHER';
const voucherRuns: string[] = [];
const voucherMethod: PaymentMethod<string> = {
  id: 'test-voucher',
  proof: VOUCHER_HEADER,
  headers: [{ name: VOUCHER_HEADER, description: 'A test voucher: pays for one rewrite.', secret: true }],
  exposedHeaders: ['X-Test-Voucher-Left'],
  read: (proofs) => proofs.header(VOUCHER_HEADER),
  accepts: (charge) => charge.product === 'rewrite',
  notAccepted: (charge) => new AppError(422, 'voucher_not_for_product', `A test voucher does not pay for ${charge.product}.`),
  cardStep: { action: 'Or hand in a test voucher.', detail: `With ${VOUCHER_HEADER}, one voucher pays for the call.` },
  async run(voucher, _exchange, _deps, request, work) {
    voucherRuns.push(voucher);
    const outcome = await work({
      resultId: randomUUID(),
      payer: request.wallet.toLowerCase(),
      authorizationId: null,
      jobIdentity: { kind: 'idempotency-key', key: `test-voucher/${voucher}` },
      method: 'test-voucher',
    });
    return { kind: 'delivered', body: { ...outcome.response, paid_with: 'test-voucher' }, replayed: false };
  },
};

const wallet = privateKeyToAccount(`0x${'4'.repeat(64)}`).address;
const REWRITE = {
  wallet_address: wallet,
  proposed_text: 'Certainly! It is important to note that you should restart the server after the deploy. I hope this helps!',
  response_delay_seconds: 20,
  target_profile: 'terse-senior-engineer',
  incoming_message: 'deploy is stuck, what now?',
};
const SIMULATE = { wallet_address: wallet, proposed_text: 'ok, restart it after the deploy', response_delay_seconds: 12, target_profile: 'terse-senior-engineer', tier: 'basic' };

describe('a payment method added as one file and one line (a test voucher)', function () {
  this.timeout(60_000);
  let stack: TestStack;

  before(async function () {
    stack = await startTestStack('payment-method-plugin', { paymentMethods: [...PAYMENT_METHODS, voucherMethod as PaymentMethod] });
  });
  after(async function () {
    await stack?.close();
  });
  beforeEach(function () {
    voucherRuns.length = 0;
  });

  it('pays for the product it accepts, through the one pipeline', async function () {
    const res = await stack.http.post('/api/rewrite').set(VOUCHER_HEADER, 'v-1').send(REWRITE);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.paid_with).to.equal('test-voucher');
    expect(res.body).to.include.keys('result_id', 'before', 'after', 'edits');
    expect(res.body.target_profile).to.equal('terse-senior-engineer');
    expect(voucherRuns).to.deep.equal(['v-1']);
  });

  it('is refused with its own error by a product it does not accept, and nothing runs', async function () {
    const res = await stack.http.post('/api/simulate').set(VOUCHER_HEADER, 'v-2').send(SIMULATE);
    expect(res.status).to.equal(422);
    expect(res.body.error.code).to.equal('voucher_not_for_product');
    expect(voucherRuns).to.deep.equal([]);
  });

  it('is one way to pay among the others: with a payment header too, the call is ambiguous', async function () {
    const res = await stack.http.post('/api/rewrite').set(VOUCHER_HEADER, 'v-3').set('X-PAYMENT', 'e30=').send(REWRITE);
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('ambiguous_payment');
    expect(res.body.error.message).to.contain(VOUCHER_HEADER);
    expect(voucherRuns).to.deep.equal([]);
  });

  it('has its header in the OpenAPI document on the products it pays for only', async function () {
    const doc = (await stack.http.get('/api/openapi.json')).body as { paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>> };
    const headersOf = (path: string) => (doc.paths[path]!.post!.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    expect(headersOf('/api/rewrite')).to.include.members([VOUCHER_HEADER, 'PAYMENT-SIGNATURE', 'X-PAYMENT']);
    expect(headersOf('/api/simulate')).not.to.include(VOUCHER_HEADER);
    expect(headersOf('/api/simulate')).to.include('X-BUNDLE-TOKEN');
  });

  it('has its headers in CORS', async function () {
    const res = await stack.http
      .options('/api/rewrite')
      .set('Origin', 'https://agent.example')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', VOUCHER_HEADER);
    expect(res.headers['access-control-allow-headers']).to.contain(VOUCHER_HEADER);
    const post = await stack.http.post('/api/rewrite').set('Origin', 'https://agent.example').send({});
    expect(post.headers['access-control-expose-headers']).to.contain('X-Test-Voucher-Left');
  });

  it('adds its step to the proof card of the products it pays for only', async function () {
    const rewrite = (await stack.http.get('/api/proof-cards/rewrite')).body as { payment_flow: Array<{ action: string }> };
    const simulate = (await stack.http.get('/api/proof-cards/simulate')).body as { payment_flow: Array<{ action: string }> };
    expect(rewrite.payment_flow.map((s) => s.action)).to.include('Or hand in a test voucher.');
    expect(simulate.payment_flow.map((s) => s.action)).not.to.include('Or hand in a test voucher.');
    expect(simulate.payment_flow.map((s) => s.action)).to.include('Or spend a prepaid credit.');
  });
});
