import { createPublicClient, getAddress, http, isAddressEqual, parseAbi, parseAbiItem, parseEventLogs, type Address, type Hex, type PublicClient } from 'viem';

const EVM_RPC_TIMEOUT_MS = 8_000;

/**
 * How far back the executed transfer of a used authorization is searched. Public endpoints cap
 * `eth_getLogs` ranges, so the search needs a bound: 10,000 blocks is about 5.5 hours on Base,
 * far beyond an authorization's validity (`maxTimeoutSeconds`, at most an hour) plus the minute
 * the reconciler takes to look.
 */
export const SETTLEMENT_LOOKBACK_BLOCKS = 10_000n;

const eip3009Abi = parseAbi(['function authorizationState(address authorizer, bytes32 nonce) view returns (bool)']);
const authorizationUsed = parseAbiItem('event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)');
const authorizationCanceled = parseAbiItem('event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)');
const transfer = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** An EIP-3009 authorization as the chain knows it: the token, the transfer it allows, its deadline. */
export interface ChainAuthorization {
  /** The token contract. */
  asset: Address;
  from: Address;
  to: Address;
  value: bigint;
  /** Unix seconds; the token refuses the authorization in any block at or after this time. */
  validBefore: bigint;
  nonce: Hex;
}

/** What the chain says about an authorization, as of its latest block. */
export type AuthorizationOnChain =
  /** Executed: the transfer it allows happened, in this transaction. */
  | { state: 'executed'; transaction: Hex }
  /** Not used. `expired`: the latest block's time is at or past validBefore, so it never can be. */
  | { state: 'unused'; expired: boolean; secondsLeft: number }
  /** Its nonce is burnt without its transfer: canceled by the payer, or used by another authorization. */
  | { state: 'spent-otherwise'; reason: 'authorization_canceled' | 'authorization_used_otherwise' }
  /** Used, but its transaction lies beyond the searched blocks. */
  | { state: 'used-not-found' };

/** Reads the state of EIP-3009 authorizations from the token through a read-only JSON-RPC endpoint. */
export interface AuthorizationChainReader {
  /**
   * @param auth - the authorization
   * @returns its state as of the latest block
   * @throws the transport's error when the endpoint cannot be read
   */
  read(auth: ChainAuthorization): Promise<AuthorizationOnChain>;
}

/**
 * A reader over `evmRpcUrl` (the `EVM_RPC_URL` of the USDC network).
 * @param evmRpcUrl - read-only EVM JSON-RPC endpoint
 * @param lookbackBlocks - how far back an executed transfer is searched
 * @returns the reader
 */
export function createAuthorizationChainReader(evmRpcUrl: string, lookbackBlocks = SETTLEMENT_LOOKBACK_BLOCKS): AuthorizationChainReader {
  const client = createPublicClient({ transport: http(evmRpcUrl, { timeout: EVM_RPC_TIMEOUT_MS, retryCount: 1 }) });
  return { read: (auth) => readAuthorization(client, auth, lookbackBlocks) };
}

/**
 * The token's `authorizationState(from, nonce)` and the latest block's time, read at one block so
 * the two agree. Unused and expired by the chain's own clock is final: a block that could still
 * include a transfer is at or after the latest one, so its time is too, and the token refuses it.
 * Used: the `AuthorizationUsed(from, nonce)` event names the transaction, whose `Transfer` must be
 * exactly `from -> to` for `value` (a nonce burnt by another signed transfer, or canceled, is not
 * this payment).
 * @param client - reads blocks, calls, logs and receipts
 * @param auth - the authorization
 * @param lookbackBlocks - how far back the transfer is searched
 * @returns its state
 */
export async function readAuthorization(client: PublicClient, auth: ChainAuthorization, lookbackBlocks: bigint): Promise<AuthorizationOnChain> {
  const asset = getAddress(auth.asset);
  const authorizer = getAddress(auth.from);
  const latest = await client.getBlock({ blockTag: 'latest' });
  const used = await client.readContract({
    address: asset,
    abi: eip3009Abi,
    functionName: 'authorizationState',
    args: [authorizer, auth.nonce],
    blockNumber: latest.number,
  });
  if (!used) {
    const left = auth.validBefore - latest.timestamp;
    return { state: 'unused', expired: left <= 0n, secondsLeft: left > 0n ? Number(left) : 0 };
  }

  const range = { fromBlock: latest.number > lookbackBlocks ? latest.number - lookbackBlocks : 0n, toBlock: latest.number };
  const [found, canceledLogs] = await Promise.all([
    findExecutingTransaction(client, auth, range),
    client.getLogs({ address: asset, args: { authorizer, nonce: auth.nonce }, ...range, event: authorizationCanceled }),
  ]);
  if (found.transaction) return { state: 'executed', transaction: found.transaction };
  if (canceledLogs.length > 0) return { state: 'spent-otherwise', reason: 'authorization_canceled' };
  if (found.usedEvents > 0) return { state: 'spent-otherwise', reason: 'authorization_used_otherwise' };
  return { state: 'used-not-found' };
}

/**
 * The transaction that executed an EIP-3009 authorization: the token's `AuthorizationUsed(from,
 * nonce)` event, in a successful transaction whose `Transfer` events include exactly `from -> to`
 * for `value`. Whoever submitted it (a facilitator, a replica, the payer), the money moved as the
 * authorization says, once. A canceled nonce emits `AuthorizationCanceled` instead and is never found.
 * @param client - reads logs and receipts
 * @param auth - the token and the transfer the authorization allows
 * @param range - the blocks searched (public endpoints cap `eth_getLogs` ranges)
 * @returns the transaction when found, and how many `AuthorizationUsed` events the nonce has in range
 */
export async function findExecutingTransaction(
  client: PublicClient,
  auth: Pick<ChainAuthorization, 'asset' | 'from' | 'to' | 'value' | 'nonce'>,
  range: { fromBlock: bigint; toBlock: bigint },
): Promise<{ transaction: Hex | undefined; usedEvents: number }> {
  const asset = getAddress(auth.asset);
  const authorizer = getAddress(auth.from);
  const logs = await client.getLogs({ address: asset, event: authorizationUsed, args: { authorizer, nonce: auth.nonce }, ...range });
  for (const log of logs) {
    if (!log.transactionHash) continue;
    const receipt = await client.getTransactionReceipt({ hash: log.transactionHash });
    if (receipt.status !== 'success') continue;
    const transfers = parseEventLogs({ abi: [transfer], logs: receipt.logs.filter((l) => isAddressEqual(l.address, asset)) });
    const ours = transfers.some((t) => isAddressEqual(t.args.from, authorizer) && isAddressEqual(t.args.to, auth.to) && t.args.value === auth.value);
    if (ours) return { transaction: log.transactionHash, usedEvents: logs.length };
  }
  return { transaction: undefined, usedEvents: logs.length };
}
