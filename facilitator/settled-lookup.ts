import { getAddress, isAddressEqual, parseAbiItem, parseEventLogs, type Address, type Hex, type PublicClient } from 'viem';

const authorizationUsed = parseAbiItem('event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)');
const transfer = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** The parts of an EIP-3009 authorization that identify its transfer on chain. */
export interface AuthorizationRef {
  from: Address;
  to: Address;
  value: bigint;
  nonce: Hex;
}

/**
 * Finds the transaction that already executed an EIP-3009 authorization: the token's
 * `AuthorizationUsed(from, nonce)` event, in a successful transaction whose `Transfer` events
 * include exactly `from -> to` for `value`. Whoever submitted it (this facilitator before a
 * restart, another replica, the payer), the money moved as the authorization says, once.
 * A canceled nonce emits `AuthorizationCanceled` instead and is never found.
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
  const logs = await client.getLogs({
    address: asset,
    event: authorizationUsed,
    args: { authorizer: getAddress(auth.from), nonce: auth.nonce },
    fromBlock,
    toBlock: latest,
  });
  for (const log of logs) {
    if (!log.transactionHash) continue;
    const receipt = await client.getTransactionReceipt({ hash: log.transactionHash });
    if (receipt.status !== 'success') continue;
    const transfers = parseEventLogs({ abi: [transfer], logs: receipt.logs.filter((l) => isAddressEqual(l.address, asset)) });
    const matches = transfers.some((t) => isAddressEqual(t.args.from, auth.from) && isAddressEqual(t.args.to, auth.to) && t.args.value === auth.value);
    if (matches) return log.transactionHash;
  }
  return undefined;
}
