import type { Network } from '@x402/core/types';
import type { Hex } from 'viem';
import { ConfigError } from '../shared/errors';
import type { RemoteChainOptions } from './index';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Default port of the facilitator process (the x402 examples' facilitator port). */
export const DEFAULT_FACILITATOR_PORT = 4020;

/** The facilitator process's configuration, from its environment. */
export interface FacilitatorConfig {
  readonly port: number;
  readonly host: string;
  readonly logLevel: (typeof LOG_LEVELS)[number];
  /** `undefined`: the embedded development chain. Otherwise the real chain to settle on. */
  readonly chain?: Readonly<RemoteChainOptions>;
  /** Development chain only: the simulated block time each settlement waits (0: none). */
  readonly devBlockTimeMs: number;
}

/**
 * Reads the facilitator's environment:
 * - `FACILITATOR_PORT` (default 4020), `FACILITATOR_HOST` (default 127.0.0.1), `LOG_LEVEL` (info);
 * - `FACILITATOR_RPC_URL`, `FACILITATOR_PRIVATE_KEY`, `FACILITATOR_NETWORK` (CAIP-2, eip155:<id>):
 *   all three select a real chain, none the embedded development chain. `FACILITATOR_PRIVATE_KEY`
 *   may list several keys separated by commas: each account sends one settlement at a time, so
 *   more keys settle more side by side (the first is the primary);
 * - `FACILITATOR_SETTLED_LOOKBACK_BLOCKS` (real chain only, default 10000): how far back a retried
 *   settle looks for the earlier settlement.
 * - `FACILITATOR_DEV_BLOCK_TIME_MS` (development chain only, default 0, at most 60000): each
 *   settlement's receipt waits this long, as on a real chain (Base: about 2000); for benches.
 * With `NODE_ENV=production` the real chain is required: a production service settling on a chain
 * that exists only in its own memory would hand out work for play money.
 * @param env - the environment (process.env in main)
 * @returns the frozen config
 * @throws ConfigError listing every problem at once
 */
export function loadFacilitatorConfig(env: Record<string, string | undefined>): FacilitatorConfig {
  const problems: string[] = [];
  const get = (name: string) => env[name]?.trim() || undefined;

  const portText = get('FACILITATOR_PORT') ?? String(DEFAULT_FACILITATOR_PORT);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535) problems.push(`FACILITATOR_PORT must be a port number (0-65535), got "${portText}"`);

  const logLevel = (get('LOG_LEVEL') ?? 'info') as FacilitatorConfig['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);

  const rpcUrl = get('FACILITATOR_RPC_URL');
  const privateKey = get('FACILITATOR_PRIVATE_KEY');
  const network = get('FACILITATOR_NETWORK');
  const given = [rpcUrl, privateKey, network].filter((v) => v !== undefined).length;
  let chain: RemoteChainOptions | undefined;
  if (given > 0 && given < 3) {
    const missing = ['FACILITATOR_RPC_URL', 'FACILITATOR_PRIVATE_KEY', 'FACILITATOR_NETWORK'].filter((n) => get(n) === undefined);
    problems.push(`a real chain needs FACILITATOR_RPC_URL, FACILITATOR_PRIVATE_KEY and FACILITATOR_NETWORK together; missing ${missing.join(', ')}`);
  } else if (given === 3) {
    if (!/^https?:\/\/\S+$/.test(rpcUrl ?? '')) problems.push('FACILITATOR_RPC_URL must be an http(s) URL');
    const keys = (privateKey ?? '').split(',').map((k) => k.trim() as Hex);
    if (keys.some((k) => !/^0x[0-9a-fA-F]{64}$/.test(k))) problems.push('FACILITATOR_PRIVATE_KEY must be 0x followed by 64 hex digits (several keys: separated by commas)');
    else if (new Set(keys.map((k) => k.toLowerCase())).size !== keys.length) problems.push('FACILITATOR_PRIVATE_KEY lists a key twice: each key must be a separate account');
    if (!/^eip155:[1-9][0-9]{0,15}$/.test(network ?? '')) problems.push(`FACILITATOR_NETWORK must be a CAIP-2 EVM id such as eip155:8453, got "${network}"`);
    const lookbackText = get('FACILITATOR_SETTLED_LOOKBACK_BLOCKS') ?? '10000';
    if (!/^[1-9]\d{0,9}$/.test(lookbackText)) problems.push('FACILITATOR_SETTLED_LOOKBACK_BLOCKS must be a positive integer');
    chain = {
      rpcUrl: rpcUrl as string,
      privateKeys: keys,
      network: network as Network,
      settledLookbackBlocks: /^\d+$/.test(lookbackText) ? BigInt(lookbackText) : undefined,
    };
  } else if (get('NODE_ENV') === 'production') {
    problems.push('NODE_ENV=production needs a real chain: set FACILITATOR_RPC_URL, FACILITATOR_PRIVATE_KEY and FACILITATOR_NETWORK');
  }

  const blockTimeText = get('FACILITATOR_DEV_BLOCK_TIME_MS') ?? '0';
  const devBlockTimeMs = Number(blockTimeText);
  if (!/^\d{1,5}$/.test(blockTimeText) || devBlockTimeMs > 60_000) problems.push(`FACILITATOR_DEV_BLOCK_TIME_MS must be 0-60000 milliseconds, got "${blockTimeText}"`);
  else if (devBlockTimeMs > 0 && chain) problems.push('FACILITATOR_DEV_BLOCK_TIME_MS applies to the development chain only; a real chain has its own block time');

  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({ port, host: get('FACILITATOR_HOST') ?? '127.0.0.1', logLevel, chain: chain && Object.freeze(chain), devBlockTimeMs });
}
