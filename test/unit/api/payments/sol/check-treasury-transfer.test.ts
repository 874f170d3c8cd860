import { expect } from 'chai';
import { generateKeyPairSigner, type KeyPairSigner } from '@solana/kit';
import { getTransferSolWithSeedInstruction } from '@solana-program/system';
import { checkTreasuryTransfer, type TreasuryTransferExpectation } from '../../../../../api/payments/sol/check-treasury-transfer';
import { decodeWireTransaction } from '../../../../../api/payments/sol/decode-wire-transaction';
import { signedSolTransfer, withForgedAmount, type SignedWireTransaction } from '../../../../helpers/solana-rpc';

// Offline: the transactions are real (signed with @solana/kit) but never leave the process.
describe('checkTreasuryTransfer', function () {
  let payer: KeyPairSigner;
  let treasury: KeyPairSigner;
  let other: KeyPairSigner;

  before(async function () {
    [payer, treasury, other] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner(), generateKeyPairSigner()]);
  });

  function check(tx: SignedWireTransaction, overrides: Partial<TreasuryTransferExpectation> = {}) {
    return checkTreasuryTransfer(decodeWireTransaction(tx.wire), {
      signature: tx.signature,
      payer: payer.address,
      treasury: treasury.address,
      minLamports: 270_000n,
      ...overrides,
    });
  }

  it('accepts a legacy transaction as well as a version 0 one', async function () {
    for (const version of ['legacy', 0] as const) {
      const tx = await signedSolTransfer({ feePayer: payer, version, transfers: [{ source: payer, destination: treasury.address, lamports: 270_000n }] });
      expect(await check(tx)).to.deep.equal({ ok: true, lamports: 270_000n });
    }
  });

  it('counts only transfers whose source is the payer', async function () {
    const tx = await signedSolTransfer({
      feePayer: payer,
      transfers: [
        { source: other, destination: treasury.address, lamports: 900_000n },
        { source: payer, destination: treasury.address, lamports: 100_000n },
      ],
    });
    expect(await check(tx)).to.include({ ok: false, reason: 'amount_too_low' });
  });

  it('does not count TransferSolWithSeed, whose source is a derived account', async function () {
    const tx = await signedSolTransfer({
      feePayer: payer,
      transfers: [],
      extraInstructions: [
        getTransferSolWithSeedInstruction({
          source: other.address,
          baseAccount: payer,
          destination: treasury.address,
          amount: 500_000n,
          fromSeed: 'seed',
          fromOwner: payer.address,
        }),
      ],
    });
    expect(await check(tx)).to.include({ ok: false, reason: 'no_transfer_to_treasury' });
  });

  it('refuses a payment to itself when the payer is the treasury', async function () {
    const tx = await signedSolTransfer({ feePayer: payer, transfers: [{ source: payer, destination: payer.address, lamports: 500_000n }] });
    expect(await check(tx, { treasury: payer.address })).to.include({ ok: false, reason: 'no_transfer_to_treasury' });
  });

  it('refuses a transfer whose recipient is loaded from an address lookup table', async function () {
    const lookupTable = (await generateKeyPairSigner()).address;
    const tx = await signedSolTransfer({
      feePayer: payer,
      transfers: [{ source: payer, destination: treasury.address, lamports: 270_000n }],
      lookupTables: { [lookupTable]: [treasury.address] },
    });
    expect(decodeWireTransaction(tx.wire).message).to.have.nested.property('addressTableLookups[0].lookupTableAddress', lookupTable);
    const result = await check(tx);
    expect(result).to.include({ ok: false, reason: 'address_lookup_table_unsupported' });
    expect(result).to.have.property('message').that.contains('lookup table');
  });

  it('accepts static transfers that cover the price even when another transfer uses a lookup table', async function () {
    const lookupTable = (await generateKeyPairSigner()).address;
    const tx = await signedSolTransfer({
      feePayer: payer,
      transfers: [
        { source: payer, destination: treasury.address, lamports: 270_000n },
        { source: payer, destination: other.address, lamports: 1_000n },
      ],
      // Only `other` is in the table: signers and the treasury stay static.
      lookupTables: { [lookupTable]: [other.address] },
    });
    expect(await check(tx)).to.deep.equal({ ok: true, lamports: 270_000n });
  });

  it('refuses a transaction whose id is not the claimed signature', async function () {
    const tx = await signedSolTransfer({ feePayer: payer, transfers: [{ source: payer, destination: treasury.address, lamports: 270_000n }] });
    const claimed = (await signedSolTransfer({ feePayer: payer, transfers: [] })).signature;
    expect(await check(tx, { signature: claimed })).to.include({ ok: false, reason: 'signature_mismatch' });
  });

  it('refuses a message changed after signing, so a node cannot inflate the amount', async function () {
    const tx = await signedSolTransfer({ feePayer: payer, transfers: [{ source: payer, destination: treasury.address, lamports: 1_000n }] });
    const forged = withForgedAmount(tx.wire, 270_000n);
    expect(forged.signature).to.equal(tx.signature);
    expect(await check(forged)).to.include({ ok: false, reason: 'invalid_signature' });
  });
});
