import { EdrContext, MineOrdering, Provider, SpecId } from '@nomicfoundation/edr';
import { decodeErrorResult, isHex, type Hex } from 'viem';

/** An EIP-1193 request: what viem's `custom(...)` transport passes to `request`. */
export interface Eip1193Request {
  method: string;
  params?: unknown;
}

/** The minimal EIP-1193 provider viem needs (`custom(provider)`). */
export interface Eip1193Provider {
  request(args: Eip1193Request): Promise<unknown>;
}

/** A JSON-RPC error object, as the chain answered it. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** What the chain answers one request with: exactly one of `result` and `error`. */
export type JsonRpcOutcome = { result: unknown; error?: undefined } | { result?: undefined; error: JsonRpcErrorObject };

/**
 * A JSON-RPC error raised through the EIP-1193 interface. It carries `code` and `data` the way
 * viem reads them, so reverts decode into their reason strings.
 */
export class JsonRpcError extends Error {
  readonly code: number;
  readonly data?: unknown;

  /** @param error - the error object from the chain */
  constructor(error: JsonRpcErrorObject) {
    super(error.message);
    this.name = 'JsonRpcError';
    this.code = error.code;
    this.data = error.data;
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

/** An in-process EVM chain: an EIP-1193 provider plus the raw JSON-RPC entry the `/rpc` route uses. */
export interface EdrChainProvider extends Eip1193Provider {
  /**
   * Runs one JSON-RPC request and returns the chain's outcome without throwing on JSON-RPC errors.
   * @param method - e.g. `eth_call`
   * @param params - positional parameters
   * @returns the result or the error object
   */
  call(method: string, params: unknown): Promise<JsonRpcOutcome>;
}

/** Options of {@link createEdrProvider}. */
export interface EdrProviderOptions {
  chainId: number;
  /** Funded at genesis; the chain can also sign `eth_sendTransaction` for these keys. */
  genesisAccounts: { privateKey: Hex; balance: bigint }[];
}

/**
 * Rewrites EDR's revert errors (code -32000, `data: {reason, data}`) the way geth and most public
 * nodes answer (code 3, `execution reverted: <reason>`, `data: <revert bytes>`), so viem decodes the
 * reason and the x402 code maps it to an error code exactly as it would on a real chain.
 * @param error - the error object EDR returned
 * @returns the error object to hand out
 */
export function asNodeError(error: JsonRpcErrorObject): JsonRpcErrorObject {
  const revertData = (error.data as { data?: unknown } | undefined)?.data;
  if (typeof revertData !== 'string' || !isHex(revertData)) return error;
  let reason: string | undefined;
  try {
    const decoded = decodeErrorResult({ abi: [], data: revertData });
    if (decoded.errorName === 'Error') reason = String(decoded.args?.[0]);
  } catch {
    // Custom errors and empty reverts have no reason string.
  }
  return { code: 3, message: reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`, data: revertData };
}

// EDR allows one context per process ("Should only be called once!"); every chain shares it.
let context: EdrContext | undefined;

/**
 * Starts an in-process development chain on Nomic Foundation's EDR (the engine inside Hardhat):
 * automine (every transaction is mined into its own block when sent), Cancun rules, and block
 * timestamps taken from the wall clock. Two blocks may share a second, so a burst of transactions
 * never pushes `block.timestamp` ahead of real time, which would break EIP-3009's
 * validAfter/validBefore checks against authorizations signed with the real clock.
 * @param options - chain id and genesis accounts
 * @returns the provider; it holds no handles, so dropping it is enough to stop it
 */
export async function createEdrProvider(options: EdrProviderOptions): Promise<EdrChainProvider> {
  context ??= new EdrContext();
  const chainId = BigInt(options.chainId);
  const provider = await Provider.withConfig(
    context,
    {
      allowBlocksWithSameTimestamp: true,
      allowUnlimitedContractSize: false,
      // As a real node: a reverting eth_call answers an error (not "0x"), and a reverting
      // transaction is still mined and its hash returned, with a failed receipt.
      bailOnCallFailure: true,
      bailOnTransactionFailure: false,
      blockGasLimit: 60_000_000n,
      chainId,
      chains: [],
      coinbase: Buffer.alloc(20),
      enableRip7212: false,
      genesisAccounts: options.genesisAccounts.map((a) => ({ secretKey: a.privateKey, balance: a.balance })),
      hardfork: SpecId.Cancun,
      initialBaseFeePerGas: 1_000_000_000n,
      initialBlobGas: { gasUsed: 0n, excessGas: 0n },
      initialParentBeaconBlockRoot: Buffer.alloc(32),
      minGasPrice: 0n,
      mining: { autoMine: true, memPool: { order: MineOrdering.Priority } },
      networkId: chainId,
    },
    { enable: false, decodeConsoleLogInputsCallback: () => [], printLineCallback: () => undefined },
    {},
    () => undefined,
  );

  let nextId = 1;
  const call = async (method: string, params: unknown): Promise<JsonRpcOutcome> => {
    const response = await provider.handleRequest(JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: params ?? [] }));
    const data: unknown = typeof response.data === 'string' ? JSON.parse(response.data) : response.data;
    const body = (data ?? {}) as { result?: unknown; error?: JsonRpcErrorObject };
    if (body.error) return { error: asNodeError(body.error) };
    return { result: body.result ?? null };
  };

  return {
    call,
    async request({ method, params }) {
      const outcome = await call(method, params);
      if (outcome.error) throw new JsonRpcError(outcome.error);
      return outcome.result;
    },
  };
}
