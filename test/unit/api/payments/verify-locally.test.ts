import { expect } from 'chai';
import type { PaymentRequirements } from '@x402/core/types';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { decodePaymentSignature } from '../../../../api/payments/exact-evm/decode-payment-signature';
import { checkPaymentSignature, checkPaymentTerms, checkPaymentWindow } from '../../../../api/payments/exact-evm/verify-locally';
import type { ExactEvmPayment } from '../../../../api/payments/exact-evm/decode-payment-signature';
import { AppError } from '../../../../shared/errors';
import { base64Json, signPayment, type SignOptions } from '../../../helpers/x402-payments';

const TREASURY = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const ASSET = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const RESOURCE = 'http://127.0.0.1:3000/api/simulate';
const requirement: PaymentRequirements = {
  scheme: 'exact',
  network: 'eip155:8453',
  amount: '50000',
  asset: ASSET,
  payTo: TREASURY,
  maxTimeoutSeconds: 300,
  extra: { name: 'USD Coin', version: '2' },
};

// The terms, then the signature: what the rail checks before a payment is reserved.
async function checkPaymentBinding(payment: ExactEvmPayment, req: PaymentRequirements, wallet: string) {
  const terms = checkPaymentTerms(payment, req, wallet);
  if (!terms.ok) return terms;
  return (await checkPaymentSignature(payment, req)) ?? terms;
}

describe('exact-EVM payment checks (real EIP-712 signatures)', function () {
  const payer = privateKeyToAccount(generatePrivateKey());
  const other = privateKeyToAccount(generatePrivateKey());

  async function bind(options: SignOptions = {}, wallet: string = payer.address) {
    const signed = await signPayment(payer, requirement, RESOURCE, options);
    return checkPaymentBinding(decodePaymentSignature(signed.header), requirement, wallet);
  }

  it('accepts a payment signed by the wallet for exactly the requirement', async function () {
    const verdict = await bind();
    expect(verdict).to.deep.equal({ ok: true, payer: payer.address });
  });

  it('accepts the wallet address in any letter case', async function () {
    expect((await bind({}, payer.address.toLowerCase())).ok).to.equal(true);
  });

  const refusals: Array<[string, SignOptions, string]> = [
    ['one unit short', { value: '49999' }, 'invalid_exact_evm_authorization_value'],
    ['one unit over', { value: '50001' }, 'invalid_exact_evm_authorization_value'],
    ['another recipient', { to: other.address }, 'invalid_exact_evm_recipient_mismatch'],
    ['accepted with another payTo', { accepted: { payTo: other.address } }, 'invalid_exact_evm_recipient_mismatch'],
    ['another asset', { accepted: { asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' } }, 'invalid_exact_evm_asset_mismatch'],
    ['another network', { accepted: { network: 'eip155:84532' } }, 'invalid_exact_evm_network_mismatch'],
    ['another scheme', { accepted: { scheme: 'upto' } }, 'invalid_exact_evm_scheme'],
    ['a domain of another chain', { domain: { chainId: 84532 } }, 'invalid_exact_evm_signature'],
    ['a domain of another token name', { domain: { name: 'USDC' } }, 'invalid_exact_evm_signature'],
  ];
  for (const [name, options, reason] of refusals) {
    it(`refuses ${name}: ${reason}`, async function () {
      const verdict = await bind(options);
      expect(verdict.ok).to.equal(false);
      expect(verdict).to.include({ reason });
    });
  }

  it('refuses a from (and wallet_address) that did not sign: a forged authorization', async function () {
    const verdict = await bind({ from: other.address }, other.address);
    expect(verdict).to.include({ ok: false, reason: 'invalid_exact_evm_signature' });
  });

  it('refuses a signer other than wallet_address', async function () {
    const verdict = await bind({}, other.address);
    expect(verdict).to.include({ ok: false, reason: 'wallet_address_mismatch' });
  });

  it('refuses a signature whose bytes were altered', async function () {
    const signed = await signPayment(payer, requirement, RESOURCE);
    const payment = decodePaymentSignature(signed.header);
    const sig = payment.signature;
    const flipped = `${sig.slice(0, 10)}${sig[10] === 'a' ? 'b' : 'a'}${sig.slice(11)}` as `0x${string}`;
    const verdict = await checkPaymentBinding({ ...payment, signature: flipped }, requirement, payer.address);
    expect(verdict).to.include({ ok: false, reason: 'invalid_exact_evm_signature' });
  });

  describe('time window and resource', function () {
    // Read when each test runs, not when the file loads: a whole-suite run reaches this file minutes later.
    let now = 0;
    beforeEach(function () {
      now = Math.floor(Date.now() / 1000);
    });
    async function window(options: SignOptions, path = '/api/simulate') {
      const signed = await signPayment(payer, requirement, RESOURCE, options);
      return checkPaymentWindow(decodePaymentSignature(signed.header), requirement, path, now);
    }

    it('passes a fresh authorization for this path', async function () {
      expect(await window({})).to.equal(undefined);
    });
    it('refuses an expired authorization', async function () {
      expect(await window({ validBefore: now - 1 })).to.include({ reason: 'invalid_exact_evm_payload_authorization_valid_before' });
    });
    it('refuses one that expires within the block-time buffer', async function () {
      expect(await window({ validBefore: now + 3 })).to.include({ reason: 'invalid_exact_evm_payload_authorization_valid_before' });
    });
    it('refuses a not-yet-valid authorization', async function () {
      expect(await window({ validAfter: now + 60 })).to.include({ reason: 'invalid_exact_evm_payload_authorization_valid_after' });
    });
    it('refuses a validity far beyond maxTimeoutSeconds', async function () {
      expect(await window({ validBefore: now + 86_400 })).to.include({ reason: 'authorization_validity_too_long' });
    });
    it('refuses an authorization made for another resource', async function () {
      expect(await window({ resourceUrl: 'http://127.0.0.1:3000/api/stress-test' })).to.include({ reason: 'resource_mismatch' });
    });
    it('refuses a payment that names no resource', async function () {
      expect(await window({ resourceUrl: null })).to.include({ reason: 'resource_missing' });
    });
  });
});

describe('PAYMENT-SIGNATURE decoding', function () {
  const payer = privateKeyToAccount(generatePrivateKey());

  function reasonOf(value: string): string {
    try {
      decodePaymentSignature(value);
    } catch (err) {
      expect(err).to.be.instanceOf(AppError);
      expect((err as AppError).status).to.equal(400);
      expect((err as AppError).code).to.equal('invalid_payment_header');
      return (err as AppError & { details: { reason: string } }).details.reason;
    }
    throw new Error('decoded a malformed header');
  }

  it('decodes a well-formed payment', async function () {
    const signed = await signPayment(payer, requirement, RESOURCE);
    const decoded = decodePaymentSignature(signed.header);
    expect(decoded.authorization.nonce).to.equal(signed.nonce);
    expect(decoded.payload.accepted.amount).to.equal('50000');
  });

  const cases: Array<[string, string, string]> = [
    ['empty', ' ', 'empty'],
    ['not base64', '%%%not-base64%%%', 'not_base64_json'],
    ['base64 of non-JSON', Buffer.from('hello').toString('base64'), 'not_base64_json'],
    ['a v1 payload', base64Json({ x402Version: 1, scheme: 'exact', network: 'base', payload: {} }), 'wrong_version'],
    ['a JSON array', base64Json([1, 2]), 'not_payment_payload'],
    ['missing accepted', base64Json({ x402Version: 2, payload: {} }), 'not_payment_payload'],
    ['over-long', 'A'.repeat(20_000), 'too_long'],
  ];
  for (const [name, value, reason] of cases) {
    it(`answers 400 for ${name} (${reason})`, function () {
      expect(reasonOf(value)).to.equal(reason);
    });
  }

  it('answers 400 for an authorization with numeric values', async function () {
    const signed = await signPayment(payer, requirement, RESOURCE);
    const bad = JSON.parse(JSON.stringify(signed.payload));
    bad.payload.authorization.value = 50000;
    expect(reasonOf(base64Json(bad))).to.equal('not_exact_evm_payload');
  });
});
