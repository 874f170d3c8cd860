import { expect } from 'chai';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { generateKeyPairSigner, type KeyPairSigner } from '@solana/kit';
import { signedSolTransfer, startLocalSolanaRpc, type LocalSolanaRpc } from '../../../helpers/solana-rpc';
import { startTestStack, type TestStack } from '../../../helpers/stack';
import { base64Json } from '../../../helpers/x402-payments';

const BASIC_LAMPORTS = 270_000n;

describe('POST /api/simulate paid with the legacy SOL rail (local Solana JSON-RPC)', function () {
  this.timeout(60_000);
  let rpc: LocalSolanaRpc;
  let stack: TestStack;
  let payer: KeyPairSigner;
  let treasury: KeyPairSigner;

  before(async function () {
    rpc = await startLocalSolanaRpc();
    [payer, treasury] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
    stack = await startTestStack('simulate-sol', {
      env: { SOLANA_RPC_URL: rpc.url, TREASURY_SOLANA_ADDRESS: treasury.address, PUBLIC_BASE_URL: 'http://humanlike.test' },
    });
  });
  after(async function () {
    await stack?.close();
    await rpc?.stop();
  });
  beforeEach(async function () {
    await stack.truncate();
    rpc.failure = null;
  });

  function body(extra: Record<string, unknown> = {}) {
    return {
      wallet_address: payer.address,
      proposed_text: 'Ugh, that sounds awful. Do you want to talk tonight?',
      response_delay_seconds: 20,
      target_profile: 'grief-support-peer',
      ...extra,
    };
  }

  async function transfer(lamports: bigint, blockTime?: number | null) {
    const tx = await signedSolTransfer({ feePayer: payer, transfers: [{ source: payer, destination: treasury.address, lamports }] });
    return rpc.add(tx.wire, { blockTime });
  }

  function xPayment(signature: string, payerAddress: string = payer.address) {
    return base64Json({ x402Version: 1, scheme: 'exact', network: 'solana', payload: { signature, payer: payerAddress } });
  }

  async function ledgerRows() {
    return (await stack.deps.dataSource.query(`SELECT product, tier, network, asset, amount::text, transaction, payer FROM ledger_sessions`)) as Array<
      Record<string, string>
    >;
  }

  it('offers the SOL entry second, in lamports', async function () {
    const res = await stack.http.get('/api/simulate');
    expect(res.status).to.equal(402);
    const sol = res.body.accepts.find((a: { network: string }) => a.network === 'solana');
    expect(sol).to.include({ amount: '270000', maxAmountRequired: '270000', payTo: treasury.address, asset: 'SOL' });
  });

  it('accepts a finalized transfer in X-PAYMENT, answers with X-PAYMENT-RESPONSE, records one ledger row', async function () {
    const signature = await transfer(BASIC_LAMPORTS);
    const res = await stack.http.post('/api/simulate').set('X-PAYMENT', xPayment(signature)).send(body());
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const receipt = decodePaymentResponseHeader(res.headers['x-payment-response']);
    expect(receipt).to.include({ success: true, transaction: signature, network: 'solana', payer: payer.address });
    expect(res.body.score.suggested_prompt_addition).to.be.a('string');
    expect(await ledgerRows()).to.deep.equal([
      { product: 'simulate', tier: 'basic', network: 'solana', asset: 'SOL', amount: '270000', transaction: signature, payer: payer.address },
    ]);
  });

  it('accepts tx_hash + wallet_address in the body as the older alternative', async function () {
    const signature = await transfer(BASIC_LAMPORTS + 5n);
    const res = await stack.http.post('/api/simulate').send(body({ tx_hash: signature }));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect((await ledgerRows())[0]).to.include({ amount: '270005', transaction: signature });
  });

  it('replays the same transfer for the same request, and answers 409 for another request', async function () {
    const signature = await transfer(BASIC_LAMPORTS);
    const first = await stack.http.post('/api/simulate').set('X-PAYMENT', xPayment(signature)).send(body());
    expect(first.status).to.equal(200);
    const again = await stack.http.post('/api/simulate').set('X-PAYMENT', xPayment(signature)).send(body());
    expect(again.status).to.equal(200);
    expect(again.headers['x-payment-replayed']).to.equal('true');
    expect(again.body).to.deep.equal(first.body);
    const other = await stack.http.post('/api/simulate').set('X-PAYMENT', xPayment(signature)).send(body({ tier: 'deep' }));
    expect(other.status).to.equal(409);
    expect((await ledgerRows()).length).to.equal(1);
  });

  it('refuses a transfer one lamport short (402 amount_too_low), reserving nothing', async function () {
    const signature = await transfer(BASIC_LAMPORTS - 1n);
    const res = await stack.http.post('/api/simulate').set('X-PAYMENT', xPayment(signature)).send(body());
    expect(res.status).to.equal(402);
    expect(res.body.error).to.equal('amount_too_low');
    expect(await stack.deps.dataSource.query(`SELECT 1 FROM payment_authorizations`)).to.have.length(0);
  });

  it('refuses a deep session paid at the basic lamport price', async function () {
    const signature = await transfer(BASIC_LAMPORTS);
    const res = await stack.http.post('/api/simulate').set('X-PAYMENT', xPayment(signature)).send(body({ tier: 'deep' }));
    expect(res.status).to.equal(402);
    expect(res.body.error).to.equal('amount_too_low');
  });

  it('refuses a payer other than wallet_address (402 wallet_address_mismatch)', async function () {
    const signature = await transfer(BASIC_LAMPORTS);
    const other = await generateKeyPairSigner();
    const res = await stack.http.post('/api/simulate').set('X-PAYMENT', xPayment(signature, other.address)).send(body());
    expect(res.status).to.equal(402);
    expect(res.body.error).to.equal('wallet_address_mismatch');
  });

  it('refuses a transfer older than maxTimeoutSeconds (plus a minute): 402 transaction_too_old, reserving nothing', async function () {
    const limit = stack.config.payments.maxTimeoutSeconds + 60;
    const old = await transfer(BASIC_LAMPORTS, Math.floor(Date.now() / 1000) - limit - 30);
    const res = await stack.http.post('/api/simulate').set('X-PAYMENT', xPayment(old)).send(body());
    expect(res.status, JSON.stringify(res.body)).to.equal(402);
    expect(res.body.error).to.equal('transaction_too_old');
    expect(await ledgerRows()).to.deep.equal([]);
    const recent = await transfer(BASIC_LAMPORTS, Math.floor(Date.now() / 1000) - limit + 30);
    expect((await stack.http.post('/api/simulate').set('X-PAYMENT', xPayment(recent)).send(body())).status).to.equal(200);
  });

  it('refuses a transfer whose block time the node does not know: 402 transaction_age_unknown', async function () {
    const unknown = await transfer(BASIC_LAMPORTS, null);
    const res = await stack.http.post('/api/simulate').set('X-PAYMENT', xPayment(unknown)).send(body());
    expect(res.status, JSON.stringify(res.body)).to.equal(402);
    expect(res.body.error).to.equal('transaction_age_unknown');
  });

  it('refuses an unknown transaction', async function () {
    const tx = await signedSolTransfer({ feePayer: payer, transfers: [{ source: payer, destination: treasury.address, lamports: BASIC_LAMPORTS }] });
    const res = await stack.http.post('/api/simulate').set('X-PAYMENT', xPayment(tx.signature)).send(body());
    expect(res.status).to.equal(402);
    expect(res.body.error).to.equal('transaction_not_found');
  });

  it('answers 503 when the Solana node is down, and charges nothing', async function () {
    const signature = await transfer(BASIC_LAMPORTS);
    rpc.failure = 'close';
    const res = await stack.http.post('/api/simulate').set('X-PAYMENT', xPayment(signature)).send(body());
    expect(res.status).to.equal(503);
    expect(res.body.error.code).to.equal('solana_rpc_unavailable');
    expect(await stack.deps.dataSource.query(`SELECT 1 FROM payment_authorizations`)).to.have.length(0);
    rpc.failure = null;
    const retry = await stack.http.post('/api/simulate').set('X-PAYMENT', xPayment(signature)).send(body());
    expect(retry.status).to.equal(200);
  });

  it('answers 402 with the requirements and the reason to a malformed X-PAYMENT (section 7)', async function () {
    const res = await stack.http.post('/api/simulate').set('X-PAYMENT', 'bm90IGpzb24=').send(body());
    expect(res.status).to.equal(402);
    expect(res.body.error).to.equal('invalid_payment_header');
    expect(res.body.details).to.include({ header: 'X-PAYMENT' });
    expect(res.body.details.reason).to.be.a('string').and.not.equal('');
    expect(res.body.accepts).to.be.an('array').that.is.not.empty;
    expect(res.headers['payment-required']).to.be.a('string');
    expect(await stack.deps.dataSource.query(`SELECT 1 FROM payment_authorizations`)).to.have.length(0);
  });
});
