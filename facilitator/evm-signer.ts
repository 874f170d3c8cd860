import { setTimeout as sleep } from 'node:timers/promises';
import { toFacilitatorEvmSigner, type FacilitatorEvmSigner } from '@x402/evm';
import {
  BaseError,
  concat,
  createWalletClient,
  encodeFunctionData,
  NonceTooLowError,
  publicActions,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type VerifyTypedDataParameters,
  type PrepareTransactionRequestParameters,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createNonceSequencer } from './nonce-sequencer';

// viem files "already known" (this very transaction is pending) under NonceTooLowError too;
// only a plain "nonce too low" proves the transaction was not taken.
function isNonceTooLow(err: unknown): boolean {
  return err instanceof BaseError && err.walk((e) => e instanceof NonceTooLowError) !== null && /nonce too low/i.test(err.message);
}

type WriteRequest = PrepareTransactionRequestParameters<Chain, ReturnType<typeof privateKeyToAccount>>;

/** Options of {@link createFacilitatorSigner}. */
export interface FacilitatorSignerOptions {
  transport: Transport;
  chain: Chain;
  /** Key of the account that submits settlements and pays their gas. */
  privateKey: Hex;
  /** How often receipt waits poll the chain. */
  pollingIntervalMs: number;
  /** Longest wait for a receipt before settle answers `settlement_pending` (x402's default: 180 s). */
  confirmationTimeoutMs?: number;
  /**
   * Earliest a receipt is answered after the wait for it began. The development chain mines each
   * transaction at once; this models a real chain's block time (about 2 s on Base) for benches and
   * tests of settlement under latency. Default 0.
   */
  blockTimeMs?: number;
}

/** The facilitator's chain access: the signer the x402 code uses, and a client for reads. */
export interface FacilitatorSigner {
  signer: FacilitatorEvmSigner;
  address: Address;
  /** Reads only (balances, logs, receipts). */
  publicClient: PublicClient;
}

/**
 * Builds the x402 facilitator signer (`toFacilitatorEvmSigner`) over one viem wallet client. Sends
 * go through a {@link createNonceSequencer} so concurrent settlements from this one key get
 * consecutive nonces; receipt waits stay concurrent.
 * @param options - transport, chain, key and timings
 * @returns the signer, its address and a public client on the same transport
 */
export function createFacilitatorSigner(options: FacilitatorSignerOptions): FacilitatorSigner {
  const account = privateKeyToAccount(options.privateKey);
  const client = createWalletClient({
    account,
    chain: options.chain,
    transport: options.transport,
    pollingInterval: options.pollingIntervalMs,
  }).extend(publicActions);
  const sequencer = createNonceSequencer(() => client.getTransactionCount({ address: account.address, blockTag: 'pending' }));
  // "Nonce too low" means another sender (a script, the /rpc passthrough, a second process with the
  // same key) took our next nonce and this transaction was not accepted: retrying once with the
  // re-read nonce is safe. Any other failure is returned as is, never re-sent.
  const send = <T>(broadcast: (nonce: number) => Promise<T>): Promise<T> =>
    sequencer.send(broadcast).catch((err: unknown) => {
      if (isNonceTooLow(err)) return sequencer.send(broadcast);
      throw err;
    });

  const signer = toFacilitatorEvmSigner(
    {
      address: account.address,
      getCode: (args) => client.getCode(args),
      readContract: (args) => client.readContract({ ...args, args: args.args ?? [] } as Parameters<typeof client.readContract>[0]),
      verifyTypedData: (args) => client.verifyTypedData(args as VerifyTypedDataParameters),
      writeContract: async (args) => {
        // Gas and fees are estimated before taking a place in the sequencer: they do not depend on
        // our nonce, and estimating inside it made every settlement wait for all earlier ones'
        // estimation round trips (100 concurrent settlements queued for seconds). Only signing
        // with the nonce and the send stay in series.
        const data = encodeFunctionData({ abi: args.abi, functionName: args.functionName, args: args.args ?? [] } as Parameters<typeof encodeFunctionData>[0]);
        const prepared = (await client.prepareTransactionRequest({
          account,
          chain: options.chain,
          to: args.address,
          data: args.dataSuffix ? concat([data, args.dataSuffix]) : data,
          parameters: ['fees', 'gas'],
        } as WriteRequest)) as { to: Address; data: Hex; gas: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint; gasPrice?: bigint };
        const { to, gas, maxFeePerGas, maxPriorityFeePerGas, gasPrice } = prepared;
        // With gas, fees and the nonce given, viem's send makes no RPC call but the raw send itself
        // (and maps the node's errors, "nonce too low" among them, as the retry above reads them).
        const fees = gasPrice === undefined ? { maxFeePerGas, maxPriorityFeePerGas } : { gasPrice };
        return send((nonce) => client.sendTransaction({ to, data: prepared.data, gas, ...fees, nonce } as Parameters<typeof client.sendTransaction>[0]));
      },
      sendTransaction: (args) => send((nonce) => client.sendTransaction({ ...args, nonce })),
      waitForTransactionReceipt: async (args) => {
        const asked = Date.now();
        // A transaction already mined answers at once: viem's wait otherwise watches for the next
        // block, which a chain that mines only on new transactions (the development chain) may
        // not produce until another settlement arrives.
        const receipt = (await client.getTransactionReceipt({ hash: args.hash }).catch(() => undefined)) ?? (await client.waitForTransactionReceipt(args));
        const early = (options.blockTimeMs ?? 0) - (Date.now() - asked);
        if (early > 0) await sleep(early);
        return receipt;
      },
    },
    options.confirmationTimeoutMs === undefined ? undefined : { confirmationTimeoutMs: options.confirmationTimeoutMs },
  );
  return { signer, address: account.address, publicClient: client as unknown as PublicClient };
}
