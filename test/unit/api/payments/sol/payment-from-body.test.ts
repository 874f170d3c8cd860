import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { getBase58Decoder } from '@solana/kit';
import { solPaymentFromBody } from '../../../../../api/payments/sol/payment-from-body';
import { ValidationError } from '../../../../../shared/errors';

const base58 = (bytes: number) => getBase58Decoder().decode(randomBytes(bytes));
const SIGNATURE = base58(64);
const PAYER = base58(32);

function fieldsOf(body: Record<string, unknown>): unknown[] {
  try {
    solPaymentFromBody(body);
  } catch (err) {
    expect(err).to.be.instanceOf(ValidationError);
    expect((err as ValidationError).status).to.equal(422);
    return ((err as ValidationError).details as { fields: unknown[] }).fields;
  }
  throw new Error('the body was accepted');
}

describe('solPaymentFromBody', function () {
  it('builds the same proof as the X-PAYMENT header from tx_hash and wallet_address', function () {
    expect(solPaymentFromBody({ tx_hash: SIGNATURE, wallet_address: PAYER }, 'solana-devnet')).to.deep.equal({
      x402Version: 1,
      scheme: 'exact',
      network: 'solana-devnet',
      payload: { signature: SIGNATURE, payer: PAYER },
    });
  });

  it('returns null when the body does not use the legacy alternative', function () {
    expect(solPaymentFromBody({ wallet_address: PAYER })).to.equal(null);
    expect(solPaymentFromBody({ tx_hash: null, wallet_address: PAYER })).to.equal(null);
  });

  it('lists every malformed field as a 422', function () {
    expect(fieldsOf({ tx_hash: `0x${randomBytes(32).toString('hex')}`, wallet_address: 'nope' })).to.deep.equal([
      { path: '/tx_hash', rule: 'format', message: 'must be a transaction signature: base58 of 64 bytes' },
      { path: '/wallet_address', rule: 'format', message: 'must be a wallet address: base58 of 32 bytes' },
    ]);
    expect(fieldsOf({ tx_hash: SIGNATURE })).to.deep.equal([
      { path: '/wallet_address', rule: 'required', message: 'is required together with tx_hash' },
    ]);
    expect(fieldsOf({ tx_hash: 12, wallet_address: PAYER })).to.have.length(1);
    expect(fieldsOf({ tx_hash: `${SIGNATURE.slice(0, -1)}I`, wallet_address: PAYER })).to.have.length(1);
  });
});
