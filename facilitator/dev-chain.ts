import { createPublicClient, createWalletClient, custom, defineChain, getAddress, type Address, type Chain, type CustomTransport, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { multicall3Artifact, testUsdcArtifact } from './contracts/artifact';
import { devAccounts, devSettlerAccounts, type DevAccount } from './dev-accounts';
import { createEdrProvider, type EdrChainProvider } from './edr-provider';

/** The development chain uses Base mainnet's chain id, so payloads look exactly like production ones. */
export const DEV_CHAIN_ID = 8453;

/** CAIP-2 id of the development chain. */
export const DEV_NETWORK = 'eip155:8453' as const;

/** Where every EVM chain (and viem, and the x402 facilitator code) expects Multicall3. */
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

/** What each development account receives at start: 1,000,000 USDC in 6-decimal units. */
export const DEV_MINT_UNITS = 1_000_000_000_000n;

// 10,000 ETH per account: gas for millions of settlements.
const GENESIS_WEI = 10_000n * 10n ** 18n;

/** viem's description of the development chain (id 8453, Multicall3 at the canonical address). */
export const devChainDefinition: Chain = defineChain({
  id: DEV_CHAIN_ID,
  name: 'humanlike development chain',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [] } },
  contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
});

/**
 * A viem transport over the in-process chain. Retries are off: viem sees a revert from an EIP-1193
 * provider as an unknown error and would retry it three times with backoff (about a second),
 * and an in-process chain has no transient failures to retry anyway.
 * @param provider - the chain
 * @returns the transport for viem clients
 */
export function devChainTransport(provider: EdrChainProvider): CustomTransport {
  return custom(provider, { retryCount: 0 });
}

/** A running development chain with the token deployed and every account funded. */
export interface DevChain {
  provider: EdrChainProvider;
  chain: Chain;
  chainId: typeof DEV_CHAIN_ID;
  network: typeof DEV_NETWORK;
  /** All ten accounts, index i at position i. */
  accounts: readonly DevAccount[];
  /** Account 0: deployed the token; the primary settlement account. */
  deployer: DevAccount;
  /** The accounts that sign and pay for settlements, account 0 first (see `devSettlerAccounts`). */
  settlers: readonly DevAccount[];
  /** Account 1: the payTo of the development stack. */
  treasury: DevAccount;
  /** Accounts 2..9: funded payers for tests and the CLI. */
  payers: readonly DevAccount[];
  /** The TestUsdc token address (the x402 `asset`). */
  asset: Address;
  /** Milliseconds spent starting the chain, deploying and minting. */
  startupMs: number;
}

/**
 * Starts the development chain: genesis funds the ten accounts of the test mnemonic and the extra
 * settlement accounts with ETH,
 * Multicall3 code is placed at its canonical address, account 0 deploys TestUsdc and mints
 * {@link DEV_MINT_UNITS} to each account.
 * @returns the chain
 * @throws Error when the deployment or a mint does not succeed
 */
export async function startDevChain(): Promise<DevChain> {
  const started = performance.now();
  const accounts = devAccounts();
  const settlers = devSettlerAccounts();
  const funded = [...accounts, ...settlers.filter((s) => !accounts.includes(s))];
  const provider = await createEdrProvider({
    chainId: DEV_CHAIN_ID,
    genesisAccounts: funded.map((a) => ({ privateKey: a.privateKey, balance: GENESIS_WEI })),
  });
  await provider.request({ method: 'hardhat_setCode', params: [MULTICALL3_ADDRESS, multicall3Artifact.deployedBytecode] });

  const transport = devChainTransport(provider);
  const publicClient = createPublicClient({ chain: devChainDefinition, transport });
  const deployer = createWalletClient({ account: privateKeyToAccount(accounts[0].privateKey), chain: devChainDefinition, transport });
  // Automine: every transaction is mined before eth_sendRawTransaction returns, so the receipt is
  // already there and the deployer's nonces can be given explicitly, without a round trip each.
  const receiptOf = async (hash: Hex) => {
    const receipt = await publicClient.getTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`development chain setup transaction ${hash} reverted`);
    return receipt;
  };
  const deployed = await receiptOf(await deployer.deployContract({ abi: testUsdcArtifact.abi, bytecode: testUsdcArtifact.bytecode, nonce: 0 }));
  if (!deployed.contractAddress) throw new Error('TestUsdc deployment produced no contract address');
  const asset = getAddress(deployed.contractAddress);
  for (const [i, account] of accounts.entries()) {
    await receiptOf(
      await deployer.writeContract({
        address: asset,
        abi: testUsdcArtifact.abi,
        functionName: 'mint',
        args: [account.address, DEV_MINT_UNITS],
        nonce: i + 1,
      }),
    );
  }

  return {
    provider,
    chain: devChainDefinition,
    chainId: DEV_CHAIN_ID,
    network: DEV_NETWORK,
    accounts,
    deployer: accounts[0],
    settlers,
    treasury: accounts[1],
    payers: accounts.slice(2),
    asset,
    startupMs: performance.now() - started,
  };
}
