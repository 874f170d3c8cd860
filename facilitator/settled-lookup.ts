import type { Address, Hex, PublicClient } from 'viem';
import { findExecutingTransaction } from '../shared/payments/authorization-chain-state';

/** The parts of an EIP-3009 authorization that identify its transfer on chain. */
export interface AuthorizationRef {
  from: Address;
  to: Address;
  value: bigint;
  nonce: Hex;
}

/**
 * Finds the transaction that already executed an EIP-3009 authorization (see
 * `findExecutingTransaction`, which the service's settlement check shares).
 * @param client - reads logs and receipts
 * @param asset - the token contract
 * @param auth - the authorization
 * @param lookbackBlocks - how far back to search; `undefined` searches from genesis (development
 *   chain). Public RPC endpoints cap `eth_getLogs` ranges, so real chains need a bound.
 * @returns the transaction hash, or undefined when the authorization was not executed in range
 */
export async function findSettlementTransaction(
  client: PublicClient,
  asset: Address,
  auth: AuthorizationRef,
  lookbackBlocks: bigint | undefined,
): Promise<Hex | undefined> {
  const latest = await client.getBlockNumber();
  const fromBlock = lookbackBlocks === undefined || latest < lookbackBlocks ? 0n : latest - lookbackBlocks;
  return (await findExecutingTransaction(client, { ...auth, asset }, { fromBlock, toBlock: latest })).transaction;
}
