import { expect } from 'chai';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { PaymentRequiredV2Schema } from '@x402/core/schemas';
import { buildChallenge, resourceUrlFor } from '../../../../api/payments/challenge';
import { loadConfig } from '../../../../shared/config';
import { AppError } from '../../../../shared/errors';
import { chargeFor } from '../../../../api/payments/charge';
import { PRODUCTS } from '../../../../shared/products';

const TREASURY = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SOL_TREASURY = 'So1TreasuryAddress1111111111111111111111111';
const charge = { ...chargeFor(PRODUCTS.simulate, 'basic'), description: 'Basic session.' };
const url = 'https://api.example.test/api/simulate';

describe('the 402 challenge', function () {
  const payments = loadConfig({ TREASURY_EVM_ADDRESS: TREASURY, TREASURY_SOLANA_ADDRESS: SOL_TREASURY }).payments;

  it('lists USDC on eip155:8453 first, with amount, maxAmountRequired, payTo, asset, timeout and the EIP-712 domain', function () {
    const { body } = buildChallenge(payments, charge, url, 'payment_required');
    expect(body).to.include({ x402Version: 2, error: 'payment_required' });
    expect(body.resource).to.deep.include({ url });
    const [usdc] = body.accepts as Array<Record<string, unknown>>;
    expect(usdc).to.deep.include({
      scheme: 'exact',
      network: 'eip155:8453',
      amount: '50000',
      maxAmountRequired: '50000',
      payTo: TREASURY,
      asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      maxTimeoutSeconds: 300,
      extra: { name: 'USD Coin', version: '2' },
    });
  });

  it('lists the legacy SOL entry second, in lamports', function () {
    const { body } = buildChallenge(payments, charge, url, 'payment_required');
    const sol = (body.accepts as Array<Record<string, unknown>>)[1];
    expect(sol).to.deep.include({ scheme: 'exact', network: 'solana', amount: '270000', maxAmountRequired: '270000', payTo: SOL_TREASURY, asset: 'SOL' });
  });

  it('puts a standard x402 v2 PaymentRequired (USDC only) in the PAYMENT-REQUIRED header', function () {
    const { header } = buildChallenge(payments, chargeFor(PRODUCTS.simulate, 'deep'), url, 'payment_required');
    const decoded = decodePaymentRequiredHeader(header);
    expect(PaymentRequiredV2Schema.safeParse(decoded).success).to.equal(true);
    expect(decoded.accepts).to.have.length(1);
    expect(decoded.accepts[0]).to.include({ amount: '180000', network: 'eip155:8453' });
  });

  it('is byte-identical between two calls (the retry must match the offer)', function () {
    const a = buildChallenge(payments, charge, url, 'payment_required');
    const b = buildChallenge(payments, charge, url, 'payment_required');
    expect(a.header).to.equal(b.header);
    expect(JSON.stringify(a.body)).to.equal(JSON.stringify(b.body));
  });

  it('refuses with 503 payments_not_configured when no treasury is set', function () {
    const bare = loadConfig({}).payments;
    expect(() => buildChallenge(bare, charge, url, 'payment_required'))
      .to.throw(AppError)
      .with.property('code', 'payments_not_configured');
  });
});

describe('resourceUrlFor', function () {
  it("takes the request's own protocol and Host, not the client's Origin header", function () {
    const payments = loadConfig({}).payments;
    expect(resourceUrlFor(payments, { protocol: 'http', host: '127.0.0.1:3999', path: '/api/simulate' })).to.equal('http://127.0.0.1:3999/api/simulate');
  });
  it('prefers the configured public origin', function () {
    const payments = loadConfig({ PUBLIC_BASE_URL: 'https://api.example.test' }).payments;
    expect(resourceUrlFor(payments, { protocol: 'http', host: 'internal:80', path: '/api/bundle' })).to.equal('https://api.example.test/api/bundle');
  });
});
