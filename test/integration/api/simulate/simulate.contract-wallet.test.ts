import { expect } from 'chai';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { createPublicClient, createWalletClient, erc20Abi, getAddress, http, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ownedWalletArtifact } from '../../../../facilitator/contracts/artifact';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment } from '../../../helpers/x402-payments';

const RESOURCE = `${PUBLIC_BASE_URL}/api/simulate`;
const BASIC = 50_000;

// A smart-wallet payer: `from` is a contract (OwnedWallet) that accepts its owner's signature
// through ERC-1271. Our own recovery yields the owner, not `from`, so only the facilitator's check
// against the chain (and the token, on settlement) can accept it.
describe('POST /api/simulate paid from a contract wallet (ERC-1271)', function () {
  this.timeout(60_000);
  let paid: PaidStack;
  let wallet: Address;
  const owner = privateKeyToAccount(generatePrivateKey());
  const stranger = privateKeyToAccount(generatePrivateKey());

  before(async function () {
    paid = await startPaidStack('simulate-contract-wallet');
    const chain = { id: 8453, name: 'development', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [paid.facilitator.rpcUrl] } } };
    const funder = createWalletClient({ account: paid.payers[3], chain, transport: http(paid.facilitator.rpcUrl) });
    const reader = createPublicClient({ chain, transport: http(paid.facilitator.rpcUrl) });
    const deployed = await reader.waitForTransactionReceipt({
      hash: await funder.deployContract({ abi: ownedWalletArtifact.abi, bytecode: ownedWalletArtifact.bytecode, args: [owner.address] }),
    });
    wallet = getAddress(deployed.contractAddress as Address);
    await reader.waitForTransactionReceipt({
      hash: await funder.writeContract({ address: paid.facilitator.asset, abi: erc20Abi, functionName: 'transfer', args: [wallet, 100_000_000n] }),
    });
  });
  after(async function () {
    await paid?.close();
  });
  beforeEach(async function () {
    await paid.stack.truncate();
  });

  function session() {
    return { wallet_address: wallet, proposed_text: 'ha, fair. send me the doc and I will look tonight', response_delay_seconds: 40, target_profile: 'terse-senior-engineer' };
  }

  it('accepts the owner-signed authorization, settles it on chain and names the wallet as payer', async function () {
    const before = { wallet: await paid.balanceOf(wallet), treasury: await paid.balanceOf(paid.facilitator.treasury) };
    const signed = await signPayment(owner, paid.requirement(BASIC), RESOURCE, { from: wallet });
    const res = await paid.stack.http.post('/api/simulate').set('PAYMENT-SIGNATURE', signed.header).send(session());
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.score.eq_score).to.be.a('number');
    const receipt = decodePaymentResponseHeader(res.headers['payment-response']);
    expect(receipt).to.include({ success: true, payer: wallet });
    expect(await paid.balanceOf(wallet)).to.equal(before.wallet - BigInt(BASIC));
    expect(await paid.balanceOf(paid.facilitator.treasury)).to.equal(before.treasury + BigInt(BASIC));
    expect(await paid.count('ledger_sessions')).to.equal(1);
  });

  it("refuses a stranger's signature for the wallet: 402 invalid_exact_evm_signature, nothing reserved or moved", async function () {
    const before = await paid.balanceOf(wallet);
    const signed = await signPayment(stranger, paid.requirement(BASIC), RESOURCE, { from: wallet });
    const res = await paid.stack.http.post('/api/simulate').set('PAYMENT-SIGNATURE', signed.header).send(session());
    expect(res.status, JSON.stringify(res.body)).to.equal(402);
    expect(res.body.error).to.equal('invalid_exact_evm_signature');
    expect(await paid.count('payment_authorizations')).to.equal(0);
    expect(await paid.balanceOf(wallet)).to.equal(before);
  });

  describe('a bundle bought by the wallet, recovered with its owner key (EIP-191 through ERC-1271)', function () {
    const BUNDLE = 42_500_000;
    const recoveryText = (bundleId: string, timestamp: number) => `humanlike: recover bundle token\nbundle_id: ${bundleId}\ntimestamp: ${timestamp}`;

    async function boughtBundle(): Promise<{ bundleId: string; token: string }> {
      const signed = await signPayment(owner, paid.requirement(BUNDLE), `${PUBLIC_BASE_URL}/api/bundle`, { from: wallet });
      const res = await paid.stack.http.post('/api/bundle').set('PAYMENT-SIGNATURE', signed.header).send({ plan: 'bundle', wallet_address: wallet });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return { bundleId: res.body.bundle_id as string, token: res.body.bundle_token as string };
    }

    it('gives a new token for the owner key\'s signature, and refuses a stranger\'s', async function () {
      const { bundleId, token } = await boughtBundle();
      const ts = Math.floor(Date.now() / 1000);
      const recover = (signature: string, timestamp = ts) =>
        paid.stack.http.post('/api/bundle/recover').send({ bundle_id: bundleId, wallet_address: wallet, timestamp, signature });

      const strangers = await recover(await stranger.signMessage({ message: recoveryText(bundleId, ts) }));
      expect(strangers.status, JSON.stringify(strangers.body)).to.equal(401);
      expect(strangers.body.error.code).to.equal('invalid_signature');

      const recovered = await recover(await owner.signMessage({ message: recoveryText(bundleId, ts) }));
      expect(recovered.status, JSON.stringify(recovered.body)).to.equal(200);
      expect(recovered.body.bundle_token).to.be.a('string').and.not.equal(token);
      const balance = await paid.stack.http.get('/api/bundle/balance').set('X-BUNDLE-TOKEN', recovered.body.bundle_token as string);
      expect(balance.status).to.equal(200);
      expect(balance.body).to.include({ bundle_id: bundleId, credits_remaining: 1000 });
    });
  });
});
