import { expect } from 'chai';
import { generateKeyPairSigner, type KeyPairSigner, type Signature } from '@solana/kit';
import { verifySolTransfer, type VerifySolTransferOptions } from '../../../../api/payments/sol/verify-sol-transfer';
import { UnavailableError, UpstreamError } from '../../../../shared/errors';
import { closedPort } from '../../../helpers/ports';
import {
  signedSolTransfer,
  startLocalSolanaRpc,
  withForgedSignature,
  type LocalSolanaRpc,
  type SolTransferSpec,
} from '../../../helpers/solana-rpc';

const PRICE = 270_000n;

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('the promise resolved');
}

describe('verifySolTransfer against a local Solana JSON-RPC node', function () {
  let rpc: LocalSolanaRpc;
  let payer: KeyPairSigner;
  let treasury: KeyPairSigner;
  let stranger: KeyPairSigner;

  before(async function () {
    rpc = await startLocalSolanaRpc();
    [payer, treasury, stranger] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner(), generateKeyPairSigner()]);
  });
  afterEach(function () {
    rpc.failure = null;
  });
  after(async function () {
    await rpc?.stop();
  });

  function verify(signature: Signature | string, overrides: Partial<VerifySolTransferOptions> = {}) {
    return verifySolTransfer({
      rpcUrl: rpc.url,
      timeoutMs: 2_000,
      signature: signature as Signature,
      payer: payer.address,
      treasury: treasury.address,
      minLamports: PRICE,
      ...overrides,
    });
  }

  async function landed(transfers: Omit<SolTransferSpec, 'source'>[], options: Parameters<LocalSolanaRpc['add']>[1] = {}) {
    const tx = await signedSolTransfer({ feePayer: payer, transfers: transfers.map((t) => ({ source: payer, ...t })) });
    return rpc.add(tx.wire, options);
  }

  it('accepts a finalized transfer to the treasury and reports lamports, slot, block time and payer', async function () {
    const signature = await landed([{ destination: treasury.address, lamports: 300_000n }], { slot: 312_345_678, blockTime: 1_767_225_600 });
    const before = rpc.calls.length;
    const result = await verify(signature);
    expect(result).to.deep.equal({
      ok: true,
      lamports: 300_000n,
      slot: 312_345_678n,
      blockTime: 1_767_225_600,
      payer: payer.address,
      signature,
    });
    // One read at finalized: @solana/kit leaves `finalized` out, which nodes take as their default.
    expect(rpc.calls.slice(before)).to.deep.equal([
      { method: 'getTransaction', params: [signature, { encoding: 'base64', maxSupportedTransactionVersion: 0 }] },
    ]);
  });

  it('refuses a transfer that landed before oldestBlockTime, and accepts one at it', async function () {
    const old = await landed([{ destination: treasury.address, lamports: PRICE }], { blockTime: 1_767_225_599 });
    expect(await verify(old, { oldestBlockTime: 1_767_225_600 })).to.include({ ok: false, reason: 'transaction_too_old' });
    const atLimit = await landed([{ destination: treasury.address, lamports: PRICE }], { blockTime: 1_767_225_600 });
    expect(await verify(atLimit, { oldestBlockTime: 1_767_225_600 })).to.include({ ok: true });
  });

  it('refuses a transfer without a block time when an age limit applies, and accepts it without one', async function () {
    const signature = await landed([{ destination: treasury.address, lamports: PRICE }], { blockTime: null });
    expect(await verify(signature, { oldestBlockTime: 1_767_225_600 })).to.include({ ok: false, reason: 'transaction_age_unknown' });
    expect(await verify(signature)).to.include({ ok: true, blockTime: null });
  });

  it('accepts exactly the price', async function () {
    const signature = await landed([{ destination: treasury.address, lamports: PRICE }]);
    expect(await verify(signature)).to.include({ ok: true, lamports: PRICE });
  });

  it('accepts a price given as a number', async function () {
    const signature = await landed([{ destination: treasury.address, lamports: PRICE }]);
    expect(await verify(signature, { minLamports: 270_000 })).to.include({ ok: true, lamports: PRICE });
  });

  it('refuses a transfer one lamport short of the price', async function () {
    const signature = await landed([{ destination: treasury.address, lamports: PRICE - 1n }]);
    const result = await verify(signature);
    expect(result).to.include({ ok: false, reason: 'amount_too_low' });
    expect(result).to.have.property('message').that.contains('269999');
  });

  it('sums two transfers to the treasury in one transaction', async function () {
    const signature = await landed([
      { destination: treasury.address, lamports: 150_000n },
      { destination: stranger.address, lamports: 999_999n },
      { destination: treasury.address, lamports: 120_000n },
    ]);
    expect(await verify(signature)).to.include({ ok: true, lamports: 270_000n });
  });

  it('refuses a transfer to another recipient', async function () {
    const signature = await landed([{ destination: stranger.address, lamports: 1_000_000n }]);
    expect(await verify(signature)).to.include({ ok: false, reason: 'no_transfer_to_treasury' });
  });

  it('refuses a transaction whose fee payer is not the claimed payer', async function () {
    // The stranger pays the fee and signs first; the claimed payer only moves the lamports.
    const tx = await signedSolTransfer({ feePayer: stranger, transfers: [{ source: payer, destination: treasury.address, lamports: PRICE }] });
    const signature = rpc.add(tx.wire);
    expect(await verify(signature)).to.include({ ok: false, reason: 'payer_mismatch' });
  });

  it('refuses a claim naming someone else as the payer of a real payment', async function () {
    const signature = await landed([{ destination: treasury.address, lamports: PRICE }]);
    expect(await verify(signature, { payer: stranger.address })).to.include({ ok: false, reason: 'payer_mismatch' });
  });

  it('refuses a transaction whose signature was tampered with', async function () {
    const tx = await signedSolTransfer({ feePayer: payer, transfers: [{ source: payer, destination: treasury.address, lamports: PRICE }] });
    const forged = withForgedSignature(tx.wire);
    expect(forged.signature).not.to.equal(tx.signature);
    rpc.add(forged.wire);
    expect(await verify(forged.signature)).to.include({ ok: false, reason: 'invalid_signature' });
  });

  it('throws a 502, not a refusal, when the node answers with a transaction whose id is another signature', async function () {
    const other = await signedSolTransfer({ feePayer: payer, transfers: [{ source: payer, destination: treasury.address, lamports: PRICE }] });
    const claimed = (await signedSolTransfer({ feePayer: payer, transfers: [] })).signature;
    rpc.add(other.wire, { signature: claimed });
    const err = await rejectionOf(verify(claimed));
    expect(err).to.be.instanceOf(UpstreamError);
    expect(err).to.include({ status: 502, code: 'solana_rpc_error' });
  });

  it('refuses a transaction that failed on chain', async function () {
    const signature = await landed([{ destination: treasury.address, lamports: PRICE }], { err: { InstructionError: [0, { Custom: 1 }] } });
    expect(await verify(signature)).to.include({ ok: false, reason: 'transaction_failed' });
  });

  it('refuses an unknown signature as not found', async function () {
    const unknown = (await signedSolTransfer({ feePayer: payer, transfers: [{ source: payer, destination: treasury.address, lamports: PRICE }] })).signature;
    expect(await verify(unknown)).to.include({ ok: false, reason: 'transaction_not_found' });
  });

  it('refuses a confirmed but not finalized transaction, then accepts it once finalized', async function () {
    const signature = await landed([{ destination: treasury.address, lamports: PRICE }], { commitment: 'confirmed' });
    const before = rpc.calls.length;
    expect(await verify(signature)).to.include({ ok: false, reason: 'transaction_not_finalized' });
    expect(rpc.calls.slice(before).map((c) => c.params)).to.deep.equal([
      [signature, { encoding: 'base64', maxSupportedTransactionVersion: 0 }],
      [signature, { commitment: 'confirmed', encoding: 'base64', maxSupportedTransactionVersion: 0 }],
    ]);
    rpc.finalize(signature);
    expect(await verify(signature)).to.include({ ok: true, lamports: PRICE });
  });

  it('refuses a transfer whose recipient the node resolves from an address lookup table', async function () {
    const lookupTable = (await generateKeyPairSigner()).address;
    const tx = await signedSolTransfer({
      feePayer: payer,
      transfers: [{ source: payer, destination: treasury.address, lamports: PRICE }],
      lookupTables: { [lookupTable]: [treasury.address] },
    });
    const signature = rpc.add(tx.wire, { loadedAddresses: { writable: [treasury.address], readonly: [] } });
    expect(await verify(signature)).to.include({ ok: false, reason: 'address_lookup_table_unsupported' });
  });

  describe('when the node is down', function () {
    let signature: string;

    before(async function () {
      signature = await landed([{ destination: treasury.address, lamports: PRICE }]);
    });

    async function expectUnavailable(promise: Promise<unknown>) {
      const err = await rejectionOf(promise);
      expect(err).to.be.instanceOf(UnavailableError);
      expect(err).to.include({ status: 503, code: 'solana_rpc_unavailable', expose: true });
      expect(err.message).to.contain('nothing was charged');
    }

    it('throws unavailable, not a refusal, on HTTP 500', async function () {
      rpc.failure = 'http-500';
      await expectUnavailable(verify(signature));
    });

    it('throws unavailable when the node drops the connection', async function () {
      rpc.failure = 'close';
      await expectUnavailable(verify(signature));
    });

    it('throws unavailable when the node does not answer before the deadline', async function () {
      rpc.failure = 'hang';
      const started = Date.now();
      await expectUnavailable(verify(signature, { timeoutMs: 300 }));
      expect(Date.now() - started).to.be.below(2_000);
    });

    it('throws unavailable when nothing listens at the endpoint', async function () {
      await expectUnavailable(verify(signature, { rpcUrl: `http://127.0.0.1:${await closedPort()}` }));
    });

    it('verifies again once the node is back', async function () {
      expect(await verify(signature)).to.include({ ok: true });
    });
  });
});
