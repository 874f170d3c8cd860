import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import {
  createPublicClient,
  createWalletClient,
  domainSeparator,
  hexToBigInt,
  numberToHex,
  parseSignature,
  serializeSignature,
  toHex,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { testUsdcArtifact } from '../../../facilitator/contracts/artifact';
import { DEV_MINT_UNITS, devChainTransport, MULTICALL3_ADDRESS, startDevChain, type DevChain } from '../../../facilitator/dev-chain';

const abi = testUsdcArtifact.abi;
// secp256k1 group order: (r, n - s) is the malleable twin of a valid (r, s).
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const authTypes = (primaryType: 'TransferWithAuthorization' | 'ReceiveWithAuthorization') => ({
  [primaryType]: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
});

describe('facilitator/contracts TestUsdc on the development chain', function () {
  this.timeout(20_000);
  let chain: DevChain;
  let reader: PublicClient;

  before(async function () {
    chain = await startDevChain();
    reader = createPublicClient({ chain: chain.chain, transport: devChainTransport(chain.provider) }) as PublicClient;
  });

  const wallet = (key: Hex) => createWalletClient({ account: privateKeyToAccount(key), chain: chain.chain, transport: devChainTransport(chain.provider) });
  const read = (functionName: string, args: unknown[] = []) => reader.readContract({ address: chain.asset, abi, functionName, args });
  const balanceOf = (address: Address) => read('balanceOf', [address]) as Promise<bigint>;
  // Sends and waits; a revert comes back as the rejection of eth_estimateGas with its reason.
  const send = async (key: Hex, functionName: string, args: unknown[]) => {
    const hash = await wallet(key).writeContract({ address: chain.asset, abi, functionName, args });
    return reader.waitForTransactionReceipt({ hash });
  };
  const expectRevert = async (promise: Promise<unknown>, reason: RegExp) => {
    const outcome = await promise.then(
      () => new Error('expected a revert'),
      (err: unknown) => err,
    );
    expect(String((outcome as Error).message)).to.match(reason);
  };

  async function signAuthorization(key: Hex, to: Address, value: bigint, primaryType: 'TransferWithAuthorization' | 'ReceiveWithAuthorization' = 'TransferWithAuthorization') {
    const now = BigInt(Math.floor(Date.now() / 1000));
    const message = { from: privateKeyToAccount(key).address, to, value, validAfter: now - 600n, validBefore: now + 600n, nonce: toHex(randomBytes(32)) };
    const signature = await privateKeyToAccount(key).signTypedData({
      domain: { name: 'USD Coin', version: '2', chainId: chain.chainId, verifyingContract: chain.asset },
      types: authTypes(primaryType),
      primaryType,
      message,
    });
    return { message, signature, args: [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce] as const };
  }

  it('has USDC metadata and an EIP-712 domain separator for this chain and address', async function () {
    expect(await read('name')).to.equal('USD Coin');
    expect(await read('symbol')).to.equal('USDC');
    expect(await read('version')).to.equal('2');
    expect(await read('decimals')).to.equal(6);
    const domain = { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: chain.asset };
    expect(await read('DOMAIN_SEPARATOR')).to.equal(domainSeparator({ domain }));
    expect(await read('totalSupply')).to.equal(DEV_MINT_UNITS * 10n);
    expect(await read('minter')).to.equal(chain.deployer.address);
  });

  it('lets only the deployer mint', async function () {
    await expectRevert(send(chain.payers[0].privateKey, 'mint', [chain.payers[0].address, 1n]), /caller is not the minter/);
  });

  it('executes transferWithAuthorization with a bytes signature, submitted by anyone, exactly once', async function () {
    const [payer, relayer] = [chain.payers[0], chain.payers[1]];
    const auth = await signAuthorization(payer.privateKey, chain.treasury.address, 123n);
    const before = await balanceOf(chain.treasury.address);

    const receipt = await send(relayer.privateKey, 'transferWithAuthorization', [...auth.args, auth.signature]);

    expect(receipt.status).to.equal('success');
    expect(await balanceOf(chain.treasury.address)).to.equal(before + 123n);
    expect(await read('authorizationState', [payer.address, auth.message.nonce])).to.equal(true);
    await expectRevert(send(relayer.privateKey, 'transferWithAuthorization', [...auth.args, auth.signature]), /authorization is used or canceled/);
  });

  it('refuses the malleable twin (high s) of a valid signature', async function () {
    const auth = await signAuthorization(chain.payers[0].privateKey, chain.treasury.address, 1n);
    const { r, s, yParity } = parseSignature(auth.signature);
    const twin = serializeSignature({ r, s: numberToHex(SECP256K1_N - hexToBigInt(s), { size: 32 }), yParity: yParity === 0 ? 1 : 0 });
    await expectRevert(send(chain.payers[1].privateKey, 'transferWithAuthorization', [...auth.args, twin]), /invalid signature 's' value/);
  });

  it('lets only the payee submit receiveWithAuthorization', async function () {
    const [payer, payee, other] = [chain.payers[2], chain.payers[3], chain.payers[4]];
    const auth = await signAuthorization(payer.privateKey, payee.address, 5n, 'ReceiveWithAuthorization');
    const { v, r, s } = parseSignature(auth.signature);
    await expectRevert(send(other.privateKey, 'receiveWithAuthorization', [...auth.args, Number(v), r, s]), /caller must be the payee/);
    const before = await balanceOf(payee.address);
    expect((await send(payee.privateKey, 'receiveWithAuthorization', [...auth.args, Number(v), r, s])).status).to.equal('success');
    expect(await balanceOf(payee.address)).to.equal(before + 5n);
  });

  it('cancels an unused authorization so it can never execute', async function () {
    const payer = chain.payers[5];
    const auth = await signAuthorization(payer.privateKey, chain.treasury.address, 7n);
    const cancel = await privateKeyToAccount(payer.privateKey).signTypedData({
      domain: { name: 'USD Coin', version: '2', chainId: chain.chainId, verifyingContract: chain.asset },
      types: { CancelAuthorization: [{ name: 'authorizer', type: 'address' }, { name: 'nonce', type: 'bytes32' }] },
      primaryType: 'CancelAuthorization',
      message: { authorizer: payer.address, nonce: auth.message.nonce },
    });
    const receipt = await send(chain.payers[6].privateKey, 'cancelAuthorization', [payer.address, auth.message.nonce, cancel]);
    expect(receipt.status).to.equal('success');
    await expectRevert(send(chain.payers[6].privateKey, 'transferWithAuthorization', [...auth.args, auth.signature]), /authorization is used or canceled/);
  });

  it('moves tokens with transfer, approve and transferFrom, and refuses more than the balance', async function () {
    const [owner, spender, to] = [chain.payers[6], chain.payers[7], chain.accounts[1]];
    await send(owner.privateKey, 'approve', [spender.address, 50n]);
    expect(await read('allowance', [owner.address, spender.address])).to.equal(50n);
    const before = await balanceOf(to.address);
    await send(spender.privateKey, 'transferFrom', [owner.address, to.address, 30n]);
    await send(owner.privateKey, 'transfer', [to.address, 1n]);
    expect(await balanceOf(to.address)).to.equal(before + 31n);
    expect(await read('allowance', [owner.address, spender.address])).to.equal(20n);
    await expectRevert(send(spender.privateKey, 'transferFrom', [owner.address, to.address, 21n]), /exceeds allowance/);
    await expectRevert(send(owner.privateKey, 'transfer', [to.address, DEV_MINT_UNITS * 2n]), /transfer amount exceeds balance/);
  });

  it('has a Multicall3 at the canonical address that batches reads', async function () {
    expect(await reader.getCode({ address: MULTICALL3_ADDRESS })).to.match(/^0x[0-9a-f]{100,}$/);
    const results = await reader.multicall({
      contracts: [
        { address: chain.asset, abi, functionName: 'name' },
        { address: chain.asset, abi, functionName: 'mint', args: [chain.deployer.address, 1n] },
      ],
    });
    expect(results[0]).to.deep.equal({ status: 'success', result: 'USD Coin' });
    // The batcher is the caller here, not the deployer: the allowed failure is reported, not thrown.
    expect(results[1].status).to.equal('failure');
  });
});
