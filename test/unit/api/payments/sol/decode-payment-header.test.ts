import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { getBase58Decoder } from '@solana/kit';
import { decodeSolPaymentHeader } from '../../../../../api/payments/sol/decode-payment-header';
import { PaymentHeaderError, type PaymentHeaderReason } from '../../../../../api/payments/sol/payment-header-error';
import { AppError } from '../../../../../shared/errors';

const base58 = (bytes: number) => getBase58Decoder().decode(randomBytes(bytes));
const SIGNATURE = base58(64);
const PAYER = base58(32);

function header(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
}

function proof(overrides: Record<string, unknown> = {}, payload: Record<string, unknown> = {}) {
  return { x402Version: 1, scheme: 'exact', network: 'solana', payload: { signature: SIGNATURE, payer: PAYER, ...payload }, ...overrides };
}

function rejection(value: string, network?: string): PaymentHeaderError {
  try {
    decodeSolPaymentHeader(value, network);
  } catch (err) {
    expect(err).to.be.instanceOf(PaymentHeaderError);
    return err as PaymentHeaderError;
  }
  throw new Error('the header was accepted');
}

function expectReason(value: string, reason: PaymentHeaderReason, network?: string): PaymentHeaderError {
  const err = rejection(value, network);
  expect(err.reason).to.equal(reason);
  expect(err.details).to.deep.equal({ header: 'X-PAYMENT', reason });
  return err;
}

describe('decodeSolPaymentHeader', function () {
  it('returns the typed proof for a well-formed v1 header', function () {
    expect(decodeSolPaymentHeader(header(proof()))).to.deep.equal({
      x402Version: 1,
      scheme: 'exact',
      network: 'solana',
      payload: { signature: SIGNATURE, payer: PAYER },
    });
  });

  it('checks the network against the configured legacy id', function () {
    const devnet = header(proof({ network: 'solana-devnet' }));
    expect(decodeSolPaymentHeader(devnet, 'solana-devnet').network).to.equal('solana-devnet');
    expectReason(devnet, 'wrong_network');
    expectReason(header(proof()), 'wrong_network', 'solana-devnet');
    expectReason(header(proof({ network: 'eip155:8453' })), 'wrong_network');
  });

  it('ignores unknown members and accepts unpadded base64', function () {
    const value = header(proof({ extra: { note: 'hi' } }, { memo: 'x' })).replace(/=+$/, '');
    expect(decodeSolPaymentHeader(value).payload).to.deep.equal({ signature: SIGNATURE, payer: PAYER });
  });

  it('is a 400 invalid_payment_header, exposed to the caller', function () {
    const err = expectReason('%%%', 'not_base64');
    expect(err).to.be.instanceOf(AppError);
    expect(err.status).to.equal(400);
    expect(err.code).to.equal('invalid_payment_header');
    expect(err.expose).to.equal(true);
  });

  it('refuses what is not standard base64', function () {
    expectReason('not base64!', 'not_base64');
    // base64url's - and _ are refused instead of being decoded leniently as Buffer would.
    expectReason(`-${header(proof()).slice(1)}`, 'not_base64');
    expectReason(`_${header(proof()).slice(1)}`, 'not_base64');
    expectReason('abcde', 'not_base64');
    expectReason('ab=c', 'not_base64');
  });

  it('refuses an empty or oversized header', function () {
    expectReason('', 'empty');
    expectReason('   ', 'empty');
    expectReason('A'.repeat(4100), 'too_long');
  });

  it('refuses bytes that are not UTF-8 or not JSON', function () {
    expectReason(Buffer.from([0xff, 0xfe, 0x7b, 0x7d]).toString('base64'), 'not_utf8');
    expectReason(Buffer.from('{"x402Version":1,').toString('base64'), 'not_json');
    expectReason(Buffer.from('hello').toString('base64'), 'not_json');
  });

  it('refuses JSON that is not an object', function () {
    expectReason(header([proof()]), 'not_object');
    expectReason(header(null), 'not_object');
    expectReason(header('solana'), 'not_object');
  });

  it('refuses any version but 1, pointing v2 clients to PAYMENT-SIGNATURE', function () {
    expect(expectReason(header(proof({ x402Version: 2 })), 'wrong_version').message).to.contain('PAYMENT-SIGNATURE');
    expectReason(header(proof({ x402Version: '1' })), 'wrong_version');
    expectReason(header(proof({ x402Version: undefined })), 'wrong_version');
  });

  it('refuses any scheme but exact', function () {
    expectReason(header(proof({ scheme: 'upto' })), 'wrong_scheme');
    expectReason(header(proof({ scheme: 'EXACT' })), 'wrong_scheme');
  });

  it('refuses a missing payload', function () {
    expectReason(header(proof({ payload: undefined })), 'missing_payload');
    expectReason(header(proof({ payload: 'sig' })), 'missing_payload');
  });

  it('refuses a signature that is not base58 of 64 bytes', function () {
    expectReason(header(proof({}, { signature: undefined })), 'bad_signature');
    expectReason(header(proof({}, { signature: 42 })), 'bad_signature');
    expectReason(header(proof({}, { signature: base58(32) })), 'bad_signature');
    expectReason(header(proof({}, { signature: `0x${randomBytes(64).toString('hex')}` })), 'bad_signature');
    expectReason(header(proof({}, { signature: `${SIGNATURE.slice(0, -1)}0` })), 'bad_signature');
  });

  it('refuses a payer that is not a base58 32-byte address', function () {
    expectReason(header(proof({}, { payer: undefined })), 'bad_payer');
    expectReason(header(proof({}, { payer: base58(31) })), 'bad_payer');
    expectReason(header(proof({}, { payer: '0x857b06519E91e3A54538791bDbb0E22373e36b66' })), 'bad_payer');
    expectReason(header(proof({}, { payer: `${PAYER.slice(0, -1)}l` })), 'bad_payer');
  });
});
