import { expect } from 'chai';
import { generateKeyPairSigner, getBase58Decoder, signBytes } from '@solana/kit';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { bundleCharge, planTerms } from '../../../../api/bundles/bundle-plans';
import { bundleTokenHashFrom, hashBundleToken, newBundleToken } from '../../../../api/payments/bundle-credit/bundle-token';
import { isOwnerSignature, recoveryMessage } from '../../../../api/bundles/recovery';
import { walletKey } from '../../../../api/payments/bundle-credit/wallet-key';
import { UnavailableError } from '../../../../shared/errors';
import { closedPort } from '../../../helpers/ports';

const BUNDLE_ID = '0B6C3A4E-1F2D-4C5B-9A8E-7D6F5E4C3B2A';

describe('bundle recovery', function () {
  it('signs a fixed three-line message with the lowercase bundle id and the timestamp', function () {
    expect(recoveryMessage(BUNDLE_ID, 1767225600)).to.equal(
      'humanlike: recover bundle token\nbundle_id: 0b6c3a4e-1f2d-4c5b-9a8e-7d6f5e4c3b2a\ntimestamp: 1767225600',
    );
  });

  it('accepts the EVM owner\'s personal_sign signature and nothing else', async function () {
    const owner = privateKeyToAccount(generatePrivateKey());
    const other = privateKeyToAccount(generatePrivateKey());
    const message = recoveryMessage(BUNDLE_ID, 1767225600);
    const wallet = walletKey(owner.address);
    expect(await isOwnerSignature(wallet, message, await owner.signMessage({ message }))).to.equal(true);
    expect(await isOwnerSignature(wallet, message, await other.signMessage({ message }))).to.equal(false);
    expect(await isOwnerSignature(wallet, `${message} `, await owner.signMessage({ message }))).to.equal(false);
    expect(await isOwnerSignature(wallet, message, `0x${'00'.repeat(65)}`)).to.equal(false);
    expect(await isOwnerSignature(wallet, message, '3yZe7d')).to.equal(false);
  });

  it('answers 503 evm_rpc_unavailable when a signature needs the chain and the node cannot be read', async function () {
    const owner = privateKeyToAccount(generatePrivateKey());
    const other = privateKeyToAccount(generatePrivateKey());
    const message = recoveryMessage(BUNDLE_ID, 1767225600);
    const rpcUrl = `http://127.0.0.1:${await closedPort()}`;
    // The owner's own key needs no chain, whatever the node's state.
    expect(await isOwnerSignature(walletKey(owner.address), message, await owner.signMessage({ message }), rpcUrl)).to.equal(true);
    const err = await isOwnerSignature(walletKey(owner.address), message, await other.signMessage({ message }), rpcUrl).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(UnavailableError);
    expect(err).to.include({ status: 503, code: 'evm_rpc_unavailable' });
  });

  it("accepts the Solana owner's ed25519 signature of the UTF-8 message and nothing else", async function () {
    const [owner, other] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
    const message = recoveryMessage(BUNDLE_ID, 1767225600);
    const sign = async (signer: typeof owner, text: string) =>
      getBase58Decoder().decode(await signBytes(signer.keyPair.privateKey, new TextEncoder().encode(text)));
    expect(await isOwnerSignature(owner.address, message, await sign(owner, message))).to.equal(true);
    expect(await isOwnerSignature(owner.address, message, await sign(other, message))).to.equal(false);
    expect(await isOwnerSignature(owner.address, message, await sign(owner, 'another message'))).to.equal(false);
    expect(await isOwnerSignature(owner.address, message, `0x${'11'.repeat(65)}`)).to.equal(false);
  });
});

describe('bundle tokens and plans', function () {
  it('makes 256-bit tokens and refuses a missing or foreign header', function () {
    const token = newBundleToken();
    expect(token).to.match(/^hlb_[A-Za-z0-9_-]{43}$/);
    expect(bundleTokenHashFrom(` ${token} `)).to.equal(hashBundleToken(token));
    expect(() => bundleTokenHashFrom('')).to.throw().with.property('code', 'bundle_token_required');
    expect(() => bundleTokenHashFrom('Bearer abc')).to.throw().with.property('code', 'invalid_bundle_token');
  });

  it('prices the fleet plan at the bundle per-credit rate', function () {
    const bundle = planTerms('bundle');
    const fleet = planTerms('fleet');
    expect(bundle.credits).to.equal(1000);
    expect(fleet.credits).to.equal(1176);
    expect(fleet.price.usdcUnits / fleet.credits).to.equal(bundle.price.usdcUnits / bundle.credits);
    expect(fleet.price.lamports / fleet.credits).to.equal(bundle.price.lamports / bundle.credits);
    expect(bundleCharge('fleet')).to.include({ product: 'bundle', tier: 'fleet' });
  });
});
