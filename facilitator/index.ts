import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Network } from '@x402/core/types';
import type Koa from 'koa';
import { createPublicClient, defineChain, http, type Address, type Chain, type Hex, type Transport } from 'viem';
import { createLogger, type Logger } from '../shared/logger';
import { createFacilitatorApp } from './app';
import type { FacilitatorState } from './context';
import type { DevAccount } from './dev-accounts';
import { DEV_CHAIN_ID, DEV_NETWORK, devChainTransport, MULTICALL3_ADDRESS, startDevChain } from './dev-chain';
import { createFacilitatorSigner } from './evm-signer';
import { createFacilitatorService } from './x402-service';

export type { DevAccount } from './dev-accounts';

/** How long `close()` lets in-flight requests finish before cutting their connections. */
const CLOSE_GRACE_MS = 5_000;

/** Options of {@link startLocalFacilitator} and {@link startFacilitator}. */
export interface FacilitatorListenOptions {
  /** TCP port; 0 picks a free one. Default 0. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /** Root logger; silent when omitted. */
  logger?: Logger;
}

/** Options of {@link startLocalFacilitator}. */
export interface LocalFacilitatorOptions extends FacilitatorListenOptions {
  /** The development chain's simulated block time: each settlement's receipt waits this long (default 0). */
  blockTimeMs?: number;
}

/** A facilitator settling on the embedded development chain. */
export interface LocalFacilitator {
  /** Base URL of the facilitator API (`/verify`, `/settle`, `/supported`). */
  url: string;
  /** JSON-RPC endpoint of the development chain (`<url>/rpc`). */
  rpcUrl: string;
  network: typeof DEV_NETWORK;
  chainId: typeof DEV_CHAIN_ID;
  /** The TestUsdc token: the `asset` of payment requirements and the EIP-712 verifyingContract. */
  asset: Address;
  /** EIP-712 domain name of the token (`extra.name`). */
  assetName: 'USD Coin';
  /** EIP-712 domain version of the token (`extra.version`). */
  assetVersion: '2';
  /** Account 1, the payTo of the development stack. */
  treasury: Address;
  /** Accounts 2..9, each holding 1,000,000 USDC and 10,000 ETH at start. */
  payers: DevAccount[];
  /** Account 0, the primary settlement account. */
  signer: Address;
  /** Every account that submits settlements and pays their gas, account 0 first. */
  settlers: Address[];
  /** Stops the HTTP server; the in-process chain goes with it. */
  close(): Promise<void>;
}

/** Where a production facilitator settles: a real chain over JSON-RPC. */
export interface RemoteChainOptions {
  /** JSON-RPC endpoint (http or https). */
  rpcUrl: string;
  /**
   * Keys of the accounts that submit settlements and pay gas, the first being the primary. Each
   * account sends one transaction at a time; more keys send more settlements side by side.
   */
  privateKeys: readonly Hex[];
  /** CAIP-2 id, e.g. `eip155:8453`; must match the endpoint's chain id. */
  network: Network;
  /** Blocks searched for an earlier settlement of a retried payload. Default 10,000 (~5.5 h on Base). */
  settledLookbackBlocks?: bigint;
}

/** A facilitator settling on a real chain. */
export interface RemoteFacilitator {
  url: string;
  network: Network;
  chainId: number;
  signer: Address;
  close(): Promise<void>;
}

/**
 * Starts the project's x402 facilitator on an in-process development chain (chain id 8453):
 * deploys TestUsdc, funds the ten test-mnemonic accounts, and serves the facilitator API plus a
 * JSON-RPC passthrough at `/rpc`. Each call starts its own chain.
 * @param options - port (0 = random), host (127.0.0.1), logger (silent), simulated block time (0)
 * @returns the running facilitator and what a client needs to pay through it
 */
export async function startLocalFacilitator(options: LocalFacilitatorOptions = {}): Promise<LocalFacilitator> {
  const logger = options.logger ?? silentLogger();
  const chain = await startDevChain();
  const transport = devChainTransport(chain.provider);
  const signer = createFacilitatorSigner({ transport, chain: chain.chain, privateKeys: chain.settlers.map((s) => s.privateKey), pollingIntervalMs: 50, blockTimeMs: options.blockTimeMs });
  const service = createFacilitatorService({ signer, network: chain.network, logger });
  const app = createFacilitatorApp({ logger, service, rpc: chain.provider });
  const { server, url } = await listen(app, options);
  logger.info({ url, network: chain.network, asset: chain.asset, signer: signer.address, settlers: signer.addresses.length, chainStartupMs: Math.round(chain.startupMs) }, 'facilitator listening on the development chain');
  return {
    url,
    rpcUrl: `${url}/rpc`,
    network: chain.network,
    chainId: chain.chainId,
    asset: chain.asset,
    assetName: 'USD Coin',
    assetVersion: '2',
    treasury: chain.treasury.address,
    payers: chain.payers.map((p) => ({ ...p })),
    signer: signer.address,
    settlers: [...signer.addresses],
    close: closer(server),
  };
}

/**
 * Starts the facilitator against a real chain (production): settlements are sent through
 * `chain.rpcUrl` from `chain.privateKeys`; there is no `/rpc` passthrough.
 * @param chain - endpoint, key, network
 * @param options - port, host, logger
 * @returns the running facilitator
 * @throws Error when the endpoint's chain id does not match the network
 */
export async function startFacilitator(chain: RemoteChainOptions, options: FacilitatorListenOptions = {}): Promise<RemoteFacilitator> {
  const logger = options.logger ?? silentLogger();
  const chainId = chainIdOf(chain.network);
  const transport = http(chain.rpcUrl, { timeout: 15_000, retryCount: 2 });
  const definition = remoteChainDefinition(chainId, chain.network, chain.rpcUrl);
  await assertChainId(transport, definition);
  const signer = createFacilitatorSigner({ transport, chain: definition, privateKeys: chain.privateKeys, pollingIntervalMs: 500 });
  const service = createFacilitatorService({ signer, network: chain.network, logger, settledLookbackBlocks: chain.settledLookbackBlocks ?? 10_000n });
  const app = createFacilitatorApp({ logger, service });
  const { server, url } = await listen(app, options);
  logger.info({ url, network: chain.network, signer: signer.address, settlers: signer.addresses.length }, 'facilitator listening');
  return { url, network: chain.network, chainId, signer: signer.address, close: closer(server) };
}

function silentLogger(): Logger {
  return createLogger({ log: { level: 'silent' } }, 'facilitator');
}

/**
 * The numeric chain id of an `eip155:<id>` network.
 * @param network - CAIP-2 id
 * @returns the chain id
 * @throws Error for anything but a positive eip155 chain id
 */
export function chainIdOf(network: string): number {
  const match = /^eip155:([1-9][0-9]{0,15})$/.exec(network);
  if (!match) throw new Error(`not an EVM network: ${network} (expected eip155:<chain id>)`);
  return Number(match[1]);
}

function remoteChainDefinition(chainId: number, network: string, rpcUrl: string): Chain {
  return defineChain({
    id: chainId,
    name: network,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
  });
}

// A key for one chain must never be used to send on another because of a wrong URL.
async function assertChainId(transport: Transport, chain: Chain): Promise<void> {
  const actual = await createPublicClient({ chain, transport }).getChainId();
  if (actual !== chain.id) throw new Error(`FACILITATOR_RPC_URL serves chain ${actual}, but FACILITATOR_NETWORK is eip155:${chain.id}`);
}

async function listen(app: Koa<FacilitatorState>, options: FacilitatorListenOptions): Promise<{ server: Server; url: string }> {
  const host = options.host ?? '127.0.0.1';
  const server = app.listen(options.port ?? 0, host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return { server, url: `http://${shownHost}:${port}` };
}

function closer(server: Server): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // In-flight requests get the grace period, then their connections are cut.
      const grace = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      try {
        await stopped;
      } finally {
        clearTimeout(grace);
      }
    })();
    return closing;
  };
}
