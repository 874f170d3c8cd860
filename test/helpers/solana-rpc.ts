import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  appendTransactionMessageInstructions,
  blockhash,
  compressTransactionMessageUsingAddressLookupTables,
  createTransactionMessage,
  getBase58Decoder,
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionDecoder,
  isSignature,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type Address,
  type AddressesByLookupTableAddress,
  type Blockhash,
  type Instruction,
  type Signature,
  type Transaction,
  type TransactionMessageBytes,
  type TransactionSigner,
} from '@solana/kit';
import {
  getTransferSolInstruction,
  getTransferSolInstructionDataDecoder,
  getTransferSolInstructionDataEncoder,
  identifySystemInstruction,
  SystemInstruction,
  SYSTEM_PROGRAM_ADDRESS,
} from '@solana-program/system';

/** How the node misbehaves: answer HTTP 500, drop the connection, or never answer. */
export type RpcFailureMode = 'http-500' | 'close' | 'hang';

/** How the node holds one transaction. */
export interface HeldTransactionOptions {
  /** Highest commitment reached; `confirmed` is invisible to `finalized` reads. Default `finalized`. */
  commitment?: 'confirmed' | 'finalized';
  /** `meta.err`, e.g. `{ InstructionError: [0, { Custom: 1 }] }`. Default null (success). */
  err?: unknown;
  /** Default: the next slot of this node. */
  slot?: number;
  /** Default: now, in Unix seconds. */
  blockTime?: number | null;
  /** Signature to answer under. Default: the transaction's first signature, as a real node does. */
  signature?: string;
  /** Addresses the v0 message loads from lookup tables, reported in `meta.loadedAddresses`. */
  loadedAddresses?: { writable: Address[]; readonly: Address[] };
}

/** One JSON-RPC call as the node received it. */
export interface RecordedRpcCall {
  method: string;
  params: unknown;
}

interface HeldTransaction {
  wire: string;
  version: 'legacy' | 0;
  commitment: 'confirmed' | 'finalized';
  slot: number;
  blockTime: number | null;
  meta: Record<string, unknown>;
}

interface JsonRpcRequest {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

const STARTING_BALANCE = 10_000_000_000; // 10 SOL per account before the transaction
const LAMPORTS_PER_SIGNATURE = 5_000;

// @solana/kit 8.4.0's isSignature throws on characters outside base58; a node answers -32602.
function isBase58Signature(value: string): boolean {
  try {
    return isSignature(value);
  } catch {
    return false;
  }
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

// Balances as a real node reports them: the fee and the top-level transfers applied on success,
// only the fee on failure. Accounts are the static keys, then loaded writable, then loaded readonly.
function metaFor(wire: string, options: HeldTransactionOptions): { meta: Record<string, unknown>; version: 'legacy' | 0 } {
  const tx = getTransactionDecoder().decode(getBase64Encoder().encode(wire));
  const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
  if (message.version !== 'legacy' && message.version !== 0) throw new Error('the local RPC holds legacy and v0 transactions only');
  const loaded = options.loadedAddresses ?? { writable: [], readonly: [] };
  const accounts = [...message.staticAccounts, ...loaded.writable, ...loaded.readonly];
  const programIndices = new Set(message.instructions.map((i) => i.programAddressIndex));
  const pre = accounts.map((_, i) => (programIndices.has(i) ? 1 : STARTING_BALANCE));
  const post = [...pre];
  const fee = LAMPORTS_PER_SIGNATURE * message.header.numSignerAccounts;
  post[0] -= fee;
  const err = options.err ?? null;
  if (err === null) {
    for (const instruction of message.instructions) {
      if (accounts[instruction.programAddressIndex] !== SYSTEM_PROGRAM_ADDRESS || !instruction.data) continue;
      if (identifySystemInstruction(instruction.data) !== SystemInstruction.TransferSol) continue;
      const amount = Number(getTransferSolInstructionDataDecoder().decode(instruction.data).amount);
      const [source, destination] = instruction.accountIndices ?? [];
      if (source === undefined || destination === undefined || source >= post.length || destination >= post.length) continue;
      post[source] -= amount;
      post[destination] += amount;
    }
  }
  const meta: Record<string, unknown> = {
    err,
    status: err === null ? { Ok: null } : { Err: err },
    fee,
    preBalances: pre,
    postBalances: post,
    innerInstructions: [],
    logMessages: ['Program 11111111111111111111111111111111 invoke [1]', 'Program 11111111111111111111111111111111 success'],
    preTokenBalances: [],
    postTokenBalances: [],
    rewards: [],
    loadedAddresses: loaded,
    computeUnitsConsumed: 150,
    costUnits: 1_481,
  };
  return { meta, version: message.version };
}

/**
 * A Solana JSON-RPC 2.0 node for tests, on 127.0.0.1: it serves `getTransaction` in the real
 * wire format (base64 encoding only) for the transactions a test adds, plus `getHealth` and
 * `getVersion`. Like a real node it treats a missing commitment as `finalized` (@solana/kit
 * leaves `finalized` out of the request), hides `confirmed` transactions from `finalized` reads,
 * refuses `processed`, and refuses a v0 transaction to a client without
 * `maxSupportedTransactionVersion` (-32015).
 */
export class LocalSolanaRpc {
  /** Every call received, in order (also those answered with a failure). */
  readonly calls: RecordedRpcCall[] = [];
  /** Set to make the node misbehave; null answers normally. */
  failure: RpcFailureMode | null = null;
  private readonly held = new Map<string, HeldTransaction>();
  private nextSlot = 300_000_000;
  private readonly server = createServer((req, res) => {
    this.handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err));
    });
  });

  /** The HTTP endpoint, valid after {@link LocalSolanaRpc.start}. */
  url = '';

  /**
   * Listens on an ephemeral port of 127.0.0.1.
   * @returns this node
   */
  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Closes the server and every connection, including calls left hanging. */
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((err) => (err ? reject(err) : resolve())));
  }

  /**
   * Holds a signed wire transaction, as if it had landed.
   * @param wire - base64 wire transaction
   * @param options - commitment, failure, slot, block time, signature to answer under
   * @returns the signature it answers under
   */
  add(wire: string, options: HeldTransactionOptions = {}): string {
    const tx = getTransactionDecoder().decode(getBase64Encoder().encode(wire));
    const signature = options.signature ?? getSignatureFromTransaction(tx);
    const { meta, version } = metaFor(wire, options);
    this.held.set(signature, {
      wire,
      version,
      commitment: options.commitment ?? 'finalized',
      slot: options.slot ?? this.nextSlot++,
      blockTime: options.blockTime === undefined ? Math.floor(Date.now() / 1000) : options.blockTime,
      meta,
    });
    return signature;
  }

  /**
   * Moves a held transaction from `confirmed` to `finalized`.
   * @param signature - the signature it is held under
   */
  finalize(signature: string): void {
    const held = this.held.get(signature);
    if (!held) throw new Error(`no transaction held under ${signature}`);
    held.commitment = 'finalized';
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    for (const call of Array.isArray(body) ? body : [body]) {
      const { method, params } = (call ?? {}) as JsonRpcRequest;
      this.calls.push({ method: String(method), params });
    }
    if (this.failure === 'hang') return;
    if (this.failure === 'close') {
      req.socket.destroy();
      return;
    }
    if (this.failure === 'http-500') {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
      return;
    }
    const reply =
      body === undefined
        ? { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null }
        : Array.isArray(body)
          ? body.map((call) => this.answer(call as JsonRpcRequest))
          : this.answer(body as JsonRpcRequest);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
  }

  private answer(request: JsonRpcRequest): unknown {
    const id = request?.id ?? null;
    try {
      if (request?.jsonrpc !== '2.0' || typeof request.method !== 'string') throw new RpcError(-32600, 'Invalid request');
      const params = request.params === undefined ? [] : request.params;
      if (!Array.isArray(params)) throw new RpcError(-32602, 'Invalid params: expected an array');
      return { jsonrpc: '2.0', result: this.call(request.method, params), id };
    } catch (err) {
      if (!(err instanceof RpcError)) throw err;
      return { jsonrpc: '2.0', error: { code: err.code, message: err.message }, id };
    }
  }

  private call(method: string, params: unknown[]): unknown {
    switch (method) {
      case 'getTransaction':
        return this.getTransaction(params);
      case 'getHealth':
        return 'ok';
      case 'getVersion':
        return { 'solana-core': '2.2.14', 'feature-set': 3_294_202_862 };
      default:
        throw new RpcError(-32601, 'Method not found');
    }
  }

  private getTransaction(params: unknown[]): unknown {
    const [signature, rawConfig] = params;
    if (typeof signature !== 'string' || !isBase58Signature(signature)) throw new RpcError(-32602, 'Invalid param: WrongSize');
    // Old clients send the encoding as a bare string instead of a config object.
    const config = (typeof rawConfig === 'string' ? { encoding: rawConfig } : (rawConfig ?? {})) as Record<string, unknown>;
    const encoding = config.encoding ?? 'json';
    if (encoding !== 'base64') throw new RpcError(-32602, `Invalid params: this test node serves encoding base64 only, not ${String(encoding)}`);
    const commitment = config.commitment ?? 'finalized';
    if (commitment !== 'confirmed' && commitment !== 'finalized') {
      throw new RpcError(-32602, 'Method does not support commitment below `confirmed`');
    }
    const held = this.held.get(signature);
    if (!held || (commitment === 'finalized' && held.commitment !== 'finalized')) return null;
    const maxVersion = config.maxSupportedTransactionVersion;
    if (held.version === 0 && maxVersion !== 0) {
      throw new RpcError(
        -32015,
        'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
      );
    }
    const meta = maxVersion === undefined ? { ...held.meta, loadedAddresses: undefined } : held.meta;
    return {
      slot: held.slot,
      blockTime: held.blockTime,
      meta,
      transaction: [held.wire, 'base64'],
      ...(maxVersion === undefined ? {} : { version: held.version }),
    };
  }
}

/**
 * Starts a {@link LocalSolanaRpc}; stop it in an `after` hook.
 * @returns the running node
 */
export async function startLocalSolanaRpc(): Promise<LocalSolanaRpc> {
  return new LocalSolanaRpc().start();
}

/**
 * A well-formed blockhash that no cluster ever produced (32 random bytes, base58).
 * @returns the blockhash
 */
export function fakeBlockhash(): Blockhash {
  return blockhash(getBase58Decoder().decode(randomBytes(32)));
}

/** One native SOL transfer of a test transaction. */
export interface SolTransferSpec {
  source: TransactionSigner;
  destination: Address;
  lamports: bigint | number;
}

/** A signed transaction as the chain would hold it. */
export interface SignedWireTransaction {
  /** Base64 wire bytes. */
  wire: string;
  /** Its id: the fee payer's signature. */
  signature: Signature;
}

/**
 * Builds and signs a real transaction with @solana/kit: System Program transfers with a fake
 * blockhash, signed by the fee payer and every transfer source.
 * @param options - fee payer, transfers, version, lookup tables to compress accounts through, extra instructions
 * @returns the base64 wire transaction and its signature
 */
export async function signedSolTransfer(options: {
  feePayer: TransactionSigner;
  transfers: SolTransferSpec[];
  version?: 'legacy' | 0;
  lookupTables?: AddressesByLookupTableAddress;
  extraInstructions?: Instruction[];
}): Promise<SignedWireTransaction> {
  const instructions: Instruction[] = [
    ...options.transfers.map((t) => getTransferSolInstruction({ source: t.source, destination: t.destination, amount: t.lamports })),
    ...(options.extraInstructions ?? []),
  ];
  const lifetime = { blockhash: fakeBlockhash(), lastValidBlockHeight: 1_000n };
  let transaction: Transaction;
  if (options.version === 'legacy') {
    if (options.lookupTables) throw new Error('address lookup tables need a version 0 transaction');
    const legacy = pipe(
      createTransactionMessage({ version: 'legacy' }),
      (m) => setTransactionMessageFeePayerSigner(options.feePayer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    transaction = await signTransactionMessageWithSigners(legacy);
  } else {
    const v0 = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(options.feePayer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    transaction = await signTransactionMessageWithSigners(
      options.lookupTables ? compressTransactionMessageUsingAddressLookupTables(v0, options.lookupTables) : v0,
    );
  }
  return { wire: getBase64EncodedWireTransaction(transaction), signature: getSignatureFromTransaction(transaction) };
}

/**
 * Replaces the first signature of a wire transaction with a forged one (one byte flipped), as a
 * forger would; a node would answer under the forged id.
 * @param wire - base64 wire transaction
 * @returns the forged wire transaction and the id it now carries
 */
export function withForgedSignature(wire: string): SignedWireTransaction {
  const bytes = Uint8Array.from(getBase64Encoder().encode(wire));
  // Byte 0 is the signature count (one byte while below 128); the first signature follows.
  bytes[1] ^= 0xff;
  return { wire: getBase64Decoder().decode(bytes), signature: getBase58Decoder().decode(bytes.subarray(1, 65)) as Signature };
}

/**
 * Rewrites the amount of the first TransferSol in the signed message and keeps the original
 * signatures, so the transaction id stays but no longer verifies over the message.
 * @param wire - base64 wire transaction
 * @param lamports - the forged amount
 * @returns the forged wire transaction and its (unchanged) id
 */
export function withForgedAmount(wire: string, lamports: bigint): SignedWireTransaction {
  const tx = getTransactionDecoder().decode(getBase64Encoder().encode(wire));
  const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
  if (message.version === 1) throw new Error('v1 messages are not supported here');
  let forged = false;
  const instructions = message.instructions.map((instruction) => {
    if (forged || message.staticAccounts[instruction.programAddressIndex] !== SYSTEM_PROGRAM_ADDRESS || !instruction.data) return instruction;
    if (identifySystemInstruction(instruction.data) !== SystemInstruction.TransferSol) return instruction;
    forged = true;
    return { ...instruction, data: getTransferSolInstructionDataEncoder().encode({ amount: lamports }) };
  });
  if (!forged) throw new Error('no TransferSol to forge');
  const messageBytes = getCompiledTransactionMessageEncoder().encode({ ...message, instructions }) as TransactionMessageBytes;
  const forgedTx = { messageBytes, signatures: tx.signatures };
  return { wire: getBase64EncodedWireTransaction(forgedTx), signature: getSignatureFromTransaction(forgedTx) };
}
