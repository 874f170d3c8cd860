import { expect } from 'chai';
import { createPublicClient, createWalletClient, http, isHash, parseEventLogs, erc20Abi, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { devAccounts } from '../../../facilitator/dev-accounts';
import { startLocalFacilitator, type LocalFacilitator } from '../../../facilitator';
import { post, PRICE, signPayment, usdcBalances, type FacilitatorBody } from './payments';

const AMOUNT = BigInt(PRICE);

describe('facilitator: /settle', function () {
  this.timeout(20_000);
  let f: LocalFacilitator;
  let balanceOf: (address: Address) => Promise<bigint>;

  before(async function () {
    f = await startLocalFacilitator({ port: 0 });
    balanceOf = usdcBalances(f);
  });
  after(async function () {
    await f?.close();
  });

  async function settle(body: FacilitatorBody) {
    const res = await post(f, '/settle', body);
    expect(res.status).to.equal(200);
    return res.body as { success: boolean; transaction: Hex; network: string; payer?: string; errorReason?: string };
  }

  it('settles a valid payment on chain: success, a mined transaction, the exact amount moved', async function () {
    const payer = f.payers[0];
    const [payerBefore, treasuryBefore] = [await balanceOf(payer.address), await balanceOf(f.treasury)];
    const body = await signPayment(f, payer.privateKey);

    const result = await settle(body);

    expect(result).to.deep.equal({ success: true, transaction: result.transaction, network: 'eip155:8453', payer: payer.address });
    expect(isHash(result.transaction)).to.equal(true);
    expect(await balanceOf(payer.address)).to.equal(payerBefore - AMOUNT);
    expect(await balanceOf(f.treasury)).to.equal(treasuryBefore + AMOUNT);
    const receipt = await createPublicClient({ transport: http(f.rpcUrl) }).getTransactionReceipt({ hash: result.transaction });
    expect(receipt.status).to.equal('success');
    expect(receipt.from.toLowerCase()).to.equal(f.signer.toLowerCase());
    const [transfer] = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs });
    expect(transfer.args).to.deep.equal({ from: payer.address, to: f.treasury, value: AMOUNT });
  });

  it('answers a second settle of the same payload with the same transaction and moves the money once', async function () {
    const payer = f.payers[1];
    const [payerBefore, treasuryBefore] = [await balanceOf(payer.address), await balanceOf(f.treasury)];
    const body = await signPayment(f, payer.privateKey);

    const first = await settle(body);
    const second = await settle(body);

    expect(first.success).to.equal(true);
    expect(second).to.deep.equal(first);
    expect(await balanceOf(payer.address)).to.equal(payerBefore - AMOUNT);
    expect(await balanceOf(f.treasury)).to.equal(treasuryBefore + AMOUNT);
    // A settled payload no longer verifies: replaying it to a resource server buys nothing.
    const verify = await post(f, '/verify', body);
    expect(verify.body).to.include({ isValid: false, invalidReason: 'invalid_exact_evm_nonce_already_used' });
  });

  it('shares one settlement between concurrent settles of the same payload', async function () {
    const payer = f.payers[2];
    const payerBefore = await balanceOf(payer.address);
    const body = await signPayment(f, payer.privateKey);

    const results = await Promise.all(Array.from({ length: 5 }, () => settle(body)));

    expect(results.every((r) => r.success)).to.equal(true);
    expect(new Set(results.map((r) => r.transaction)).size).to.equal(1);
    expect(await balanceOf(payer.address)).to.equal(payerBefore - AMOUNT);
  });

  it('does not answer success for a forged copy of a settled payload', async function () {
    const payer = f.payers[3];
    const body = await signPayment(f, payer.privateKey);
    expect((await settle(body)).success).to.equal(true);
    // Same authorization and nonce, signed by someone else.
    const forged = await signPayment(f, payer.privateKey, { signerKey: f.payers[4].privateKey });
    forged.paymentPayload.payload.authorization = body.paymentPayload.payload.authorization;

    const result = await settle(forged);

    expect(result).to.include({ success: false, errorReason: 'invalid_exact_evm_signature', transaction: '' });
  });

  it('fails without moving money when the payer cannot pay', async function () {
    const treasuryBefore = await balanceOf(f.treasury);
    const body = await signPayment(f, generatePrivateKey());

    const result = await settle(body);

    expect(result.success).to.equal(false);
    expect(result.errorReason).to.equal('invalid_exact_evm_insufficient_balance');
    expect(result.transaction).to.equal('');
    expect(await balanceOf(f.treasury)).to.equal(treasuryBefore);
  });

  it('settles after another sender used the facilitator account (its next nonce is taken)', async function () {
    // The facilitator knows its next nonce after a successful send...
    expect((await settle(await signPayment(f, f.payers[0].privateKey))).success).to.equal(true);
    // ...then a transaction signed with its key (another process holding it) takes its next nonce.
    const key = devAccounts().find((a) => a.address === f.signer)?.privateKey as Hex;
    const client = createWalletClient({ account: privateKeyToAccount(key), transport: http(f.rpcUrl) });
    const sent = await client.sendTransaction({ chain: null, to: f.treasury, value: 1n });
    expect(sent).to.match(/^0x[0-9a-f]{64}$/);
    expect((await settle(await signPayment(f, f.payers[1].privateKey))).success).to.equal(true);
  });

  it('lands 30 concurrent settlements of different authorizations, sent side by side from several settlement accounts', async function () {
    const count = 30;
    const payerOf = (i: number) => f.payers[i % f.payers.length];
    const before = new Map<Address, bigint>();
    for (const p of [...f.payers.map((p) => p.address), f.treasury]) before.set(p, await balanceOf(p));
    const bodies = await Promise.all(Array.from({ length: count }, (_, i) => signPayment(f, payerOf(i).privateKey)));

    const results = await Promise.all(bodies.map((b) => settle(b)));

    expect(results.filter((r) => !r.success), JSON.stringify(results.find((r) => !r.success))).to.deep.equal([]);
    expect(new Set(results.map((r) => r.transaction)).size).to.equal(count);
    const chain = createPublicClient({ transport: http(f.rpcUrl) });
    const senders = new Set((await Promise.all(results.map((r) => chain.getTransactionReceipt({ hash: r.transaction })))).map((r) => r.from.toLowerCase()));
    expect([...senders].every((a) => f.settlers.some((s) => s.toLowerCase() === a))).to.equal(true);
    expect(senders.size, 'settlement accounts used').to.be.greaterThan(1);
    expect(await balanceOf(f.treasury)).to.equal((before.get(f.treasury) ?? 0n) + AMOUNT * BigInt(count));
    for (const [i, p] of f.payers.entries()) {
      const paid = BigInt(Array.from({ length: count }, (_, j) => j).filter((j) => j % f.payers.length === i).length);
      expect(await balanceOf(p.address), p.address).to.equal((before.get(p.address) ?? 0n) - AMOUNT * paid);
    }
  });
});
