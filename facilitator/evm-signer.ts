import { setTimeout as sleep } from 'node:timers/promises';
import { toFacilitatorEvmSigner, type FacilitatorEvmSigner } from '@x402/evm';
import {
  BaseError,
  concat,
  createPublicClient,
  encodeFunctionData,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type TransactionSerializable,
  type Transport,
  type VerifyTypedDataParameters,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createNonceSequencer } from './nonce-sequencer';

// "Nonce too low" means another sender took this nonce and the transaction was not taken; "already
// known" (this very transaction is pending) is not that, and must never be re-sent.
function isNonceTooLow(err: unknown): boolean {
  return err instanceof BaseError && /nonce too low/i.test(err.message) && !/already known/i.test(err.message);
}

/** Options of {@link createFacilitatorSigner}. */
export interface FacilitatorSignerOptions {
  transport: Transport;
  chain: Chain;
  /**
   * Keys of the accounts that submit settlements and pay their gas, the first being the primary.
   * One account sends one transaction at a time (its nonces are consecutive), so its send rate is
   * bound by a sign and a send round trip; several accounts send side by side.
   */
  privateKeys: readonly Hex[];
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
  /** The primary settlement account (the first key). */
  address: Address;
  /** Every settlement account, the primary first. */
  addresses: readonly Address[];
  /** Reads only (balances, logs, receipts). */
  publicClient: PublicClient;
}

/** One settlement account: its key, its nonce queue, and how many sends it has waiting. */
interface Settler {
  account: PrivateKeyAccount;
  send<T>(broadcast: (nonce: number) => Promise<T>): Promise<T>;
  waiting: number;
}

/**
 * Builds the x402 facilitator signer (`toFacilitatorEvmSigner`) over viem clients. Each settlement
 * account sends through its own {@link createNonceSequencer}, so its concurrent settlements get
 * consecutive nonces; a settlement goes to the account with the fewest sends waiting, so accounts
 * send side by side. Receipt waits stay concurrent.
 * @param options - transport, chain, keys and timings
 * @returns the signer, its addresses and a public client on the same transport
 */
export function createFacilitatorSigner(options: FacilitatorSignerOptions): FacilitatorSigner {
  if (options.privateKeys.length === 0) throw new Error('a facilitator needs at least one settlement key');
  const chainId = options.chain.id;
  const client = createPublicClient({ chain: options.chain, transport: options.transport, pollingInterval: options.pollingIntervalMs });
  const settlers = options.privateKeys.map((key) => settlerOf(client, privateKeyToAccount(key)));
  // Concurrent settlements share one fee reading: fees are the chain's, not the transaction's.
  const fees = singleFlight(() => client.estimateFeesPerGas());

  // From the account's address, not the local account: viem fills a local account's whole
  // transaction (nonce, fees, type: four more round trips) before it estimates.
  const estimateGas = (tx: { to: Address; data?: Hex; value?: bigint }, settler: Settler) => client.estimateGas({ ...tx, account: settler.account.address });
  const getCode = recentCode((address) => client.getCode({ address }));

  // The account with the fewest sends waiting; ties go to the first, so a quiet facilitator
  // settles from its primary account.
  const pick = (): Settler => settlers.reduce((best, s) => (s.waiting < best.waiting ? s : best));

  // Gas and fees are read before the transaction takes a place in its account's queue: they do not
  // depend on the nonce, and reading them inside it made every settlement wait for all earlier
  // ones' round trips. Only signing with the nonce and the one raw send stay in series.
  const submit = async (tx: { to: Address; data?: Hex; value?: bigint }): Promise<Hex> => {
    const settler = pick();
    settler.waiting++;
    try {
      const [gas, fee] = await Promise.all([estimateGas(tx, settler), fees()]);
      return await settler.send(async (nonce) => {
        const serializedTransaction = await settler.account.signTransaction({ ...tx, gas, ...feeFields(fee), nonce, chainId } as TransactionSerializable);
        return client.sendRawTransaction({ serializedTransaction });
      });
    } finally {
      settler.waiting--;
    }
  };

  const signer = toFacilitatorEvmSigner(
    {
      address: settlers[0].account.address,
      getCode: (args) => getCode(args.address),
      readContract: (args) => client.readContract({ ...args, args: args.args ?? [] } as Parameters<typeof client.readContract>[0]),
      verifyTypedData: (args) => client.verifyTypedData(args as VerifyTypedDataParameters),
      writeContract: (args) => {
        const data = encodeFunctionData({ abi: args.abi, functionName: args.functionName, args: args.args ?? [] } as Parameters<typeof encodeFunctionData>[0]);
        return submit({ to: args.address, data: args.dataSuffix ? concat([data, args.dataSuffix]) : data });
      },
      sendTransaction: (args) => submit(args),
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
  const addresses = settlers.map((s) => s.account.address);
  return { signer: { ...signer, getAddresses: () => [...addresses] }, address: addresses[0], addresses, publicClient: client as unknown as PublicClient };
}

function feeFields(fee: Awaited<ReturnType<PublicClient['estimateFeesPerGas']>>): { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint } {
  return fee.maxFeePerGas !== undefined && fee.maxPriorityFeePerGas !== undefined
    ? { maxFeePerGas: fee.maxFeePerGas, maxPriorityFeePerGas: fee.maxPriorityFeePerGas }
    : { gasPrice: (fee as { gasPrice: bigint }).gasPrice };
}

function settlerOf(client: Pick<PublicClient, 'getTransactionCount'>, account: PrivateKeyAccount): Settler {
  const sequencer = createNonceSequencer(() => client.getTransactionCount({ address: account.address, blockTag: 'pending' }));
  const settler: Settler = {
    account,
    waiting: 0,
    // "Nonce too low" means another sender (a script, the /rpc passthrough, a second process with
    // the same key) took our next nonce and this transaction was not accepted: retrying once with
    // the re-read nonce is safe. Any other failure is returned as is, never re-sent.
    send: (broadcast) =>
      sequencer.send(broadcast).catch((err: unknown) => {
        if (isNonceTooLow(err)) return sequencer.send(broadcast);
        throw err;
      }),
  };
  return settler;
}

// How long an address's code is reused: about one settlement, whose verify and settle each ask
// for the payer's code twice (is it a smart wallet? which signature check?).
const RECENT_CODE_MS = 2_000;
const MAX_RECENT_CODES = 4_096;

/**
 * Reuses an address's code read within the last {@link RECENT_CODE_MS}. A stale answer never
 * accepts what a fresh one would refuse: code that appeared meanwhile (a wallet deployed, an
 * EIP-7702 delegation) makes the package check an ECDSA signature from the address's key, which a
 * contract cannot forge, or (ERC-6492) send a wallet deployment that is no longer needed; and the
 * token checks the signature again on chain.
 * @param read - reads an address's code from the chain
 * @returns the reader
 */
function recentCode(read: (address: Address) => Promise<Hex | undefined>): (address: Address) => Promise<Hex | undefined> {
  const recent = new Map<string, { at: number; code: Promise<Hex | undefined> }>();
  return (address) => {
    const key = address.toLowerCase();
    const now = Date.now();
    const hit = recent.get(key);
    if (hit && now - hit.at < RECENT_CODE_MS) return hit.code;
    if (recent.size >= MAX_RECENT_CODES) {
      for (const [k, v] of recent) if (now - v.at >= RECENT_CODE_MS) recent.delete(k);
      if (recent.size >= MAX_RECENT_CODES) recent.clear();
    }
    const code = read(address);
    recent.set(key, { at: now, code });
    // A failed read is not reused (unless a newer read has replaced it meanwhile).
    code.catch(() => {
      if (recent.get(key)?.code === code) recent.delete(key);
    });
    return code;
  };
}

/**
 * Calls `read` once for all callers that ask while a call is running.
 * @param read - the shared read
 * @returns a function that joins the running read or starts one
 */
function singleFlight<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= read().finally(() => {
      running = undefined;
    });
    return running;
  };
}
