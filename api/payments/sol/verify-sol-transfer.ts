import {
  createSolanaRpc,
  isSolanaError,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_UNSUPPORTED_TRANSACTION_VERSION,
  type Address,
  type Signature,
} from '@solana/kit';
import { UpstreamError } from '../../../shared/errors';
import { checkTreasuryTransfer } from './check-treasury-transfer';
import { isSolAddress } from './legacy-sol-payment';
import { decodeWireTransaction, type DecodedWireTransaction } from './decode-wire-transaction';
import { rpcFailureToAppError } from './rpc-failure';
import { refuse, type SolTransferVerification } from './sol-transfer-verification';

/** What {@link verifySolTransfer} needs: where to ask, how long to wait, and what to check. */
export interface VerifySolTransferOptions {
  /** The Solana JSON-RPC endpoint (HTTP or HTTPS). */
  readonly rpcUrl: string;
  /** Deadline for the whole verification, both RPC calls included, in milliseconds. */
  readonly timeoutMs: number;
  /** The claimed transaction id (from the payment proof). */
  readonly signature: Signature;
  /** The claimed payer (from the payment proof). */
  readonly payer: Address;
  /** Our treasury address. */
  readonly treasury: Address;
  /** The price in lamports: the transfers to the treasury must add up to at least this. */
  readonly minLamports: bigint | number;
  /**
   * Unix seconds: a transaction whose block time is earlier (or unknown) is refused. A legacy
   * proof is not bound to a request the way a signed authorization is, so only a recent transfer
   * may pay; undefined checks no age.
   */
  readonly oldestBlockTime?: number;
}

type Commitment = 'confirmed' | 'finalized';

function lamportsOf(value: bigint | number): bigint {
  if (typeof value === 'bigint' ? value < 0n : !Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`minLamports must be a non-negative integer, got ${String(value)}`);
  }
  return BigInt(value);
}

function badReply(message: string, cause?: unknown): UpstreamError {
  return new UpstreamError('solana_rpc_error', `The Solana node answered getTransaction unexpectedly: ${message}.`, cause);
}

async function fetchTransaction(options: VerifySolTransferOptions, commitment: Commitment, abortSignal: AbortSignal) {
  const rpc = createSolanaRpc(options.rpcUrl);
  try {
    return await rpc
      .getTransaction(options.signature, { commitment, encoding: 'base64', maxSupportedTransactionVersion: 0 })
      .send({ abortSignal });
  } catch (err) {
    // The node says which version the transaction has: a fact about the payer's transaction.
    if (isSolanaError(err, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_UNSUPPORTED_TRANSACTION_VERSION)) return 'unsupported_version' as const;
    throw rpcFailureToAppError(err);
  }
}

/**
 * Verifies a legacy SOL payment read-only against the chain (described in docs/payments.md). It asks the
 * node for the transaction at `finalized` commitment (`getTransaction`, base64 wire encoding,
 * versions up to 0) and refuses it unless it succeeded, its first signature is the claimed one
 * and verifies under the fee payer's key, the fee payer is the claimed payer, and its System
 * Program transfers from the payer to the treasury add up to at least `minLamports`, and (with
 * `oldestBlockTime`) it landed recently enough. When the
 * transaction is not finalized, a second call at `confirmed` tells "not finalized yet" (retry)
 * from "not found". Replays of one signature are the caller's to refuse (it is the payment's id).
 * A node that answers with another transaction than the one asked for, or without its status, is
 * a node fault (502), not a refusal.
 * @param options - RPC endpoint and deadline, the proof, the treasury and the price
 * @returns the verified transfer (`ok: true`) or a refusal with a stable reason (`ok: false`)
 * @throws UnavailableError (503 `solana_rpc_unavailable`) when the node is unreachable, times out or is unhealthy
 * @throws UpstreamError (502 `solana_rpc_error`) when the node's answer cannot be used
 * @throws TypeError when `minLamports` or `treasury` is not valid (a programming error)
 */
export async function verifySolTransfer(options: VerifySolTransferOptions): Promise<SolTransferVerification> {
  const minLamports = lamportsOf(options.minLamports);
  if (!isSolAddress(options.treasury)) throw new TypeError(`treasury is not a Solana address: ${String(options.treasury)}`);
  const abortSignal = AbortSignal.timeout(options.timeoutMs);

  const found = await fetchTransaction(options, 'finalized', abortSignal);
  if (found === 'unsupported_version') {
    return refuse('unsupported_transaction_version', 'The transaction has a version above 0; use a legacy or version 0 transaction.');
  }
  if (found === null) {
    const confirmed = await fetchTransaction(options, 'confirmed', abortSignal);
    return confirmed === null
      ? refuse('transaction_not_found', 'No transaction with this signature is known to the chain.')
      : refuse('transaction_not_finalized', 'The transaction is not finalized yet; retry with the same proof in a few seconds.');
  }
  if (typeof found !== 'object' || !Array.isArray(found.transaction) || found.transaction[1] !== 'base64') {
    throw badReply('no base64 transaction');
  }
  // A null meta (status unknown, seen only for very old ledger entries) says nothing about the payer.
  if (found.meta === null || typeof found.meta !== 'object' || !('err' in found.meta)) throw badReply('no transaction status');
  if (found.meta.err !== null) return refuse('transaction_failed', 'The transaction failed on chain, so nothing was transferred.');

  let decoded: DecodedWireTransaction;
  try {
    decoded = decodeWireTransaction(found.transaction[0]);
  } catch (err) {
    throw badReply('the transaction bytes do not decode', err);
  }
  const check = await checkTreasuryTransfer(decoded, {
    signature: options.signature,
    payer: options.payer,
    treasury: options.treasury,
    minLamports,
  });
  // Nodes index transactions by their first signature only, so another id means a faulty node,
  // not a faulty proof: a 502, never a refusal the payer would take for a bad payment.
  if (!check.ok && check.reason === 'signature_mismatch') throw badReply('it returned a transaction with another id');
  if (!check.ok) return check;
  if (options.oldestBlockTime !== undefined) {
    if (found.blockTime === null) {
      return refuse('transaction_age_unknown', 'The node does not know when this transaction landed, so it cannot pay; send a new transfer.');
    }
    if (Number(found.blockTime) < options.oldestBlockTime) {
      return refuse('transaction_too_old', 'The transfer landed too long ago to pay for a request (see maxTimeoutSeconds); send a new transfer.');
    }
  }
  return {
    ok: true,
    lamports: check.lamports,
    slot: BigInt(found.slot),
    blockTime: found.blockTime === null ? null : Number(found.blockTime),
    payer: options.payer,
    signature: options.signature,
  };
}
