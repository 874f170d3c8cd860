import { expect } from 'chai';
import { recoverMessageAddress, recoverTypedDataAddress, type Hex, type TypedDataDefinition } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { isWalletSignature } from '../../../../shared/payments/wallet-signature';

// The secp256k1 group order: s and n - s are the two signatures of one key for one digest.
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const typedData = (nonce: number): TypedDataDefinition => ({
  domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3' },
  types: { Ping: [{ name: 'nonce', type: 'uint256' }, { name: 'note', type: 'string' }] },
  primaryType: 'Ping',
  message: { nonce: BigInt(nonce), note: `ping ${nonce}` },
});

// The same signature with v as yParity (0/1) instead of 27/28.
const withYParity = (signature: Hex): Hex => `${signature.slice(0, 130)}${(parseInt(signature.slice(130), 16) - 27).toString(16).padStart(2, '0')}` as Hex;

// The other valid signature of the same key and digest: s' = n - s, the recovery bit flipped.
function highSTwin(signature: Hex): Hex {
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = parseInt(signature.slice(130), 16);
  return `${signature.slice(0, 66)}${(N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}` as Hex;
}

describe("isWalletSignature: a key's signature, recovered with libsecp256k1 (real keys, no chain)", function () {
  const keys = Array.from({ length: 24 }, () => privateKeyToAccount(generatePrivateKey()));

  it('finds the signer of typed data and of messages exactly where viem recovers it, and no one else', async function () {
    for (const [i, key] of keys.entries()) {
      const other = keys[(i + 1) % keys.length];
      const data = typedData(i);
      const typed = await key.signTypedData(data as Parameters<typeof key.signTypedData>[0]);
      expect(await recoverTypedDataAddress({ ...data, signature: typed })).to.equal(key.address);
      expect(await isWalletSignature(key.address, { typedData: data }, typed)).to.equal(true);
      expect(await isWalletSignature(other.address, { typedData: data }, typed)).to.equal(false);
      expect(await isWalletSignature(key.address, { typedData: typedData(i + 1000) }, typed)).to.equal(false);

      const message = `humanlike bundle recovery ${i}`;
      const signed = await key.signMessage({ message });
      expect(await recoverMessageAddress({ message, signature: signed })).to.equal(key.address);
      expect(await isWalletSignature(key.address, { message }, signed)).to.equal(true);
      expect(await isWalletSignature(other.address, { message }, signed)).to.equal(false);
      expect(await isWalletSignature(key.address, { message: `${message}!` }, signed)).to.equal(false);
    }
  });

  it('reads v as 27/28 or as 0/1, and the high-s twin as viem does; refuses any other v and an r of zero', async function () {
    const key = keys[0];
    const data = typedData(7);
    const signature = await key.signTypedData(data as Parameters<typeof key.signTypedData>[0]);
    expect(await isWalletSignature(key.address, { typedData: data }, withYParity(signature))).to.equal(true);
    const twin = highSTwin(signature);
    expect(await recoverTypedDataAddress({ ...data, signature: twin })).to.equal(key.address);
    expect(await isWalletSignature(key.address, { typedData: data }, twin)).to.equal(true);
    for (const v of ['02', '1d', 'ff']) {
      expect(await isWalletSignature(key.address, { typedData: data }, `${signature.slice(0, 130)}${v}` as Hex), `v = 0x${v}`).to.equal(false);
    }
    expect(await isWalletSignature(key.address, { typedData: data }, `0x${'00'.repeat(32)}${signature.slice(66)}` as Hex)).to.equal(false);
    expect(await isWalletSignature(key.address, { typedData: data }, signature.slice(0, 120) as Hex)).to.equal(false);
  });
});
