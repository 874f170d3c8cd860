import { expect } from 'chai';
import { createPublicClient, http } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { startLocalFacilitator, type LocalFacilitator } from '../../../facilitator';
import { DEV_MINT_UNITS } from '../../../facilitator/dev-chain';
import { post, PRICE, requirementsFor, signPayment, usdcBalances } from './payments';

describe('facilitator: /supported, /verify and /rpc', function () {
  this.timeout(20_000);
  let f: LocalFacilitator;

  before(async function () {
    f = await startLocalFacilitator({ port: 0 });
  });
  after(async function () {
    await f?.close();
  });

  it('describes the development chain it started', function () {
    expect(f.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(f.rpcUrl).to.equal(`${f.url}/rpc`);
    expect(f).to.include({ network: 'eip155:8453', chainId: 8453, assetName: 'USD Coin', assetVersion: '2' });
    expect(f.asset).to.match(/^0x[0-9a-fA-F]{40}$/);
    expect(f.payers).to.have.length(8);
    expect(new Set([f.treasury, f.signer, ...f.payers.map((p) => p.address)]).size).to.equal(10);
  });

  it('lists one v2 exact kind on eip155:8453 and its signer at /supported', async function () {
    const res = await fetch(`${f.url}/supported`);
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({
      kinds: [{ x402Version: 2, scheme: 'exact', network: 'eip155:8453' }],
      extensions: [],
      signers: { 'eip155:*': f.settlers },
    });
  });

  it('answers /healthz', async function () {
    const res = await fetch(`${f.url}/healthz`);
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ status: 'ok', network: 'eip155:8453', signer: f.signer });
  });

  it('serves the chain at /rpc: chain id 8453, every payer funded with 1,000,000 USDC, wall-clock timestamps', async function () {
    const client = createPublicClient({ transport: http(f.rpcUrl) });
    expect(await client.getChainId()).to.equal(8453);
    const balanceOf = usdcBalances(f);
    // Nothing settles in this file: every balance is still the minted one.
    for (const payer of f.payers) expect(await balanceOf(payer.address)).to.equal(DEV_MINT_UNITS);
    expect(await balanceOf(f.treasury)).to.equal(DEV_MINT_UNITS);
    const block = await client.getBlock();
    expect(Number(block.timestamp)).to.be.closeTo(Date.now() / 1000, 5);
  });

  it('passes JSON-RPC batches through in order and answers a malformed request with 400', async function () {
    const batch = await post(f, '/rpc', [
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'no_such_method', params: [] },
    ]);
    expect(batch.status).to.equal(200);
    expect(batch.body[0]).to.deep.equal({ jsonrpc: '2.0', id: 1, result: '0x2105' });
    expect(batch.body[1]).to.have.nested.property('error.code').that.is.a('number');
    expect((await post(f, '/rpc', '{"jsonrpc":')).status).to.equal(400);
    const noMethod = await post(f, '/rpc', { jsonrpc: '2.0', id: 3 });
    expect(noMethod.status).to.equal(400);
    expect(noMethod.body.error.code).to.equal(-32600);
  });

  it("serves no method that signs with the chain's keys or changes its state behind the service", async function () {
    const client = createPublicClient({ transport: http(f.rpcUrl) });
    const nonceBefore = await client.getTransactionCount({ address: f.signer });
    const refused = ['eth_sendTransaction', 'eth_sign', 'eth_signTypedData_v4', 'hardhat_setBalance', 'hardhat_setCode', 'hardhat_impersonateAccount', 'evm_mine', 'evm_revert', 'debug_traceTransaction', 'personal_sign'];
    const answers = await post(
      f,
      '/rpc',
      refused.map((method, id) => ({ jsonrpc: '2.0', id, method, params: method === 'eth_sendTransaction' ? [{ from: f.signer, to: f.treasury, value: '0x1' }] : [] })),
    );
    expect(answers.status).to.equal(200);
    for (const [i, method] of refused.entries()) {
      expect(answers.body[i], method).to.deep.include({ id: i });
      expect(answers.body[i].error, method).to.include({ code: -32601 });
      expect(answers.body[i]).not.to.have.property('result');
    }
    // The refused send from the facilitator's account never happened.
    expect(await client.getTransactionCount({ address: f.signer })).to.equal(nonceBefore);
  });

  it('verifies a valid payment and names the payer', async function () {
    const body = await signPayment(f, f.payers[0].privateKey);
    const res = await post(f, '/verify', body);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ isValid: true, payer: f.payers[0].address });
  });

  it('rejects a signature made by another key', async function () {
    const body = await signPayment(f, f.payers[0].privateKey, { signerKey: f.payers[1].privateKey });
    const res = await post(f, '/verify', body);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ isValid: false, invalidReason: 'invalid_exact_evm_signature', payer: f.payers[0].address });
  });

  it('rejects an authorization for another amount than required', async function () {
    const body = await signPayment(f, f.payers[0].privateKey, { value: String(Number(PRICE) - 1) });
    const res = await post(f, '/verify', body);
    expect(res.body).to.include({ isValid: false, invalidReason: 'invalid_exact_evm_payload_authorization_value_mismatch' });
  });

  it('rejects an expired authorization', async function () {
    const now = Math.floor(Date.now() / 1000);
    const body = await signPayment(f, f.payers[0].privateKey, { validAfter: now - 3600, validBefore: now - 10 });
    const res = await post(f, '/verify', body);
    expect(res.body).to.include({ isValid: false, invalidReason: 'invalid_exact_evm_payload_authorization_valid_before' });
  });

  it('rejects an authorization that is not valid yet', async function () {
    const now = Math.floor(Date.now() / 1000);
    const body = await signPayment(f, f.payers[0].privateKey, { validAfter: now + 3600, validBefore: now + 7200 });
    const res = await post(f, '/verify', body);
    expect(res.body).to.include({ isValid: false, invalidReason: 'invalid_exact_evm_payload_authorization_valid_after' });
  });

  it('rejects a payer without the funds (a fresh key), diagnosed by the simulated transfer', async function () {
    const key = generatePrivateKey();
    const body = await signPayment(f, key);
    const res = await post(f, '/verify', body);
    expect(res.body).to.include({ isValid: false, invalidReason: 'invalid_exact_evm_insufficient_balance', payer: body.paymentPayload.payload.authorization.from });
  });

  it('rejects a payment signed for another domain name than the token’s', async function () {
    const requirements = { ...requirementsFor(f), extra: { name: 'USDC', version: '2' } };
    const body = await signPayment(f, f.payers[0].privateKey, { requirements });
    // The signature matches the (wrong) domain it names; the token's own domain refuses it.
    const res = await post(f, '/verify', body);
    expect(res.body).to.include({ isValid: false, invalidReason: 'invalid_exact_evm_token_name_mismatch' });
  });

  describe('malformed requests', function () {
    it('answers invalid JSON with 400 and the x402 verify fields', async function () {
      const res = await post(f, '/verify', '{"x402Version": 2,');
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ isValid: false, invalidReason: 'invalid_json' });
      expect(res.body.error.code).to.equal('invalid_json');
    });

    it('answers a body missing fields with 400 listing them', async function () {
      const res = await post(f, '/verify', { x402Version: 2, paymentPayload: { x402Version: 2 } });
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_request');
      const paths = (res.body.error.details.fields as Array<{ path: string }>).map((p) => p.path);
      expect(paths).to.include.members(['/paymentRequirements', '/paymentPayload/accepted', '/paymentPayload/payload']);
    });

    it('answers numbers where the spec wants decimal strings with 400', async function () {
      const body = await signPayment(f, f.payers[0].privateKey);
      const auth = body.paymentPayload.payload.authorization;
      const res = await post(f, '/verify', { ...body, paymentPayload: { ...body.paymentPayload, payload: { ...body.paymentPayload.payload, authorization: { ...auth, value: Number(auth.value) } } } });
      expect(res.status).to.equal(400);
      expect(res.body.error.details.fields).to.deep.include({ path: '/paymentPayload/payload/authorization/value', rule: 'type', message: 'must be string' });
    });

    it('answers a JSON array, a v1 body and a non-JSON content type with 4xx, never 500', async function () {
      expect((await post(f, '/verify', [])).status).to.equal(400);
      expect((await post(f, '/settle', { x402Version: 1, paymentPayload: {}, paymentRequirements: {} })).status).to.equal(400);
      expect((await post(f, '/verify', 'x402Version=2', 'application/x-www-form-urlencoded')).status).to.equal(415);
    });

    it('answers a payment on a network it does not serve with 400 unsupported_kind', async function () {
      const requirements = { ...requirementsFor(f), network: 'eip155:1' as const };
      const body = await signPayment(f, f.payers[0].privateKey, { requirements });
      const res = await post(f, '/verify', body);
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('unsupported_kind');
    });

    it('answers a malformed /settle with 400 and the x402 settle fields', async function () {
      const res = await post(f, '/settle', { x402Version: 2 });
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ success: false, errorReason: 'invalid_request', transaction: '', network: 'eip155:8453' });
    });

    it('answers an unknown path with a JSON 404', async function () {
      const res = await fetch(`${f.url}/nothing`);
      expect(res.status).to.equal(404);
      expect((await res.json()).error.code).to.equal('not_found');
    });
  });
});
