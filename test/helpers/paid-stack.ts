import type { PaymentRequirements } from '@x402/core/types';
import { createPublicClient, createWalletClient, defineChain, erc20Abi, http, type Address } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { startLocalFacilitator, type LocalFacilitator, type LocalFacilitatorOptions } from '../../facilitator';
import { startFaultyProxy, type FaultyProxy } from './faulty-proxy';
import { startTestStack, type TestStack } from './stack';

/** The fixed public origin of paid test stacks (`resource.url` of every payment). */
export const PUBLIC_BASE_URL = 'http://humanlike.test';

/** A test stack paid through the project's facilitator on its development chain, behind a faulty proxy. */
export interface PaidStack {
  stack: TestStack;
  facilitator: LocalFacilitator;
  /** Sits between the service and the facilitator; tests take the facilitator down with it. */
  proxy: FaultyProxy;
  /** Funded payer accounts (real private keys). */
  payers: PrivateKeyAccount[];
  /** USDC balance of an address, in atomic units, read from the chain. */
  balanceOf(address: Address): Promise<bigint>;
  /** The USDC requirement the service offers for an amount. */
  requirement(amount: number): PaymentRequirements;
  /**
   * Mines a block (a 0-value transfer of the last payer to itself): the development chain mines
   * only on transactions, so its latest block time stands still until one comes.
   */
  mineBlock(): Promise<void>;
  /** Rows in a table. */
  count(table: 'payment_authorizations' | 'ledger_sessions' | 'idempotency_records' | 'calibration_shares'): Promise<number>;
  close(): Promise<void>;
}

/**
 * Starts the facilitator (own chain), a proxy in front of it, and a test stack whose payments go
 * through the proxy.
 * @param suite - suite name (the queue prefix)
 * @param options - `worker: false` for no in-process worker; env overrides; facilitator options
 *   (a simulated block time)
 * @returns the paid stack
 */
export async function startPaidStack(
  suite: string,
  options: { worker?: boolean; env?: Record<string, string>; facilitator?: LocalFacilitatorOptions } = {},
): Promise<PaidStack> {
  const facilitator = await startLocalFacilitator(options.facilitator);
  const proxy = await startFaultyProxy(facilitator.url);
  let stack: TestStack;
  try {
    stack = await startTestStack(suite, {
      worker: options.worker,
      env: {
        X402_FACILITATOR_URL: proxy.url,
        X402_FACILITATOR_TIMEOUT_MS: '3000',
        X402_NETWORK: facilitator.network,
        USDC_ASSET_ADDRESS: facilitator.asset,
        TREASURY_EVM_ADDRESS: facilitator.treasury,
        EVM_RPC_URL: facilitator.rpcUrl,
        PUBLIC_BASE_URL,
        ...options.env,
      },
    });
  } catch (err) {
    await proxy.close();
    await facilitator.close();
    throw err;
  }
  const client = createPublicClient({ transport: http(facilitator.rpcUrl) });
  const chain = defineChain({
    id: facilitator.chainId,
    name: facilitator.network,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [facilitator.rpcUrl] } },
  });
  const miner = privateKeyToAccount(facilitator.payers[facilitator.payers.length - 1].privateKey);
  const wallet = createWalletClient({ account: miner, chain, transport: http(facilitator.rpcUrl) });
  return {
    stack,
    facilitator,
    proxy,
    payers: facilitator.payers.map((p) => privateKeyToAccount(p.privateKey)),
    balanceOf: (address) => client.readContract({ address: facilitator.asset, abi: erc20Abi, functionName: 'balanceOf', args: [address] }),
    requirement: (amount) => ({
      scheme: 'exact',
      network: facilitator.network,
      amount: String(amount),
      asset: facilitator.asset,
      payTo: facilitator.treasury,
      maxTimeoutSeconds: stack.config.payments.maxTimeoutSeconds,
      extra: { name: facilitator.assetName, version: facilitator.assetVersion },
    }),
    async mineBlock() {
      const hash = await wallet.sendTransaction({ to: miner.address, value: 0n });
      await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    },
    async count(table) {
      const rows = (await stack.deps.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`)) as Array<{ n: number }>;
      return rows[0].n;
    },
    async close() {
      try {
        await stack.close();
      } finally {
        await proxy.close();
        await facilitator.close();
      }
    },
  };
}
