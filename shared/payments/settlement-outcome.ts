import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import type { Logger } from '../logger';
import type { AuthorizationChainReader } from './authorization-chain-state';
import { recordSettlement, type AuthorizationRow, type RecordedSettlement } from './authorization-store';
import type { Eip3009Authorization } from './eip3009';
import { publishSettlement } from './feed';
import { maskIdentifier } from './mask';

/**
 * Settle refusals (`success: false`) whose reason proves that the refused call moved no money:
 * each is decided by the facilitator's verification, before any transaction is sent. From the
 * x402 specs' reason codes (v1 §9, v2 §9, and the legacy `x402` ErrorReasons) and those
 * `@x402/evm` 2.27 answers from the verify stage of its exact/EIP-3009 settle (`verifyEIP3009`
 * and its simulation). Left out, because the transfer may have happened (then the chain decides):
 * `invalid_exact_evm_nonce_already_used` and `invalid_transaction_state` (used: possibly by our
 * own earlier attempt), `invalid_exact_evm_payload_authorization_valid_before` (expired: possibly
 * after it executed), `invalid_exact_evm_transaction_failed` and
 * `invalid_exact_evm_transfer_event_mismatch` (a transaction was mined), `settlement_pending`,
 * `smart_wallet_deployment_failed`, `unexpected_settle_error`, `unknown_settlement_error`,
 * `settle_failed`, and every reason not listed here.
 *
 * A reason proves nothing about earlier attempts: after one whose outcome is unknown (a lost
 * answer that may have moved the money and drained the balance), even `insufficient_funds` is
 * checked against the chain.
 */
export const NOTHING_MOVED_REASONS: ReadonlySet<string> = new Set([
  // x402 spec codes
  'insufficient_funds',
  'invalid_exact_evm_payload_authorization_valid_after',
  'invalid_exact_evm_payload_authorization_value',
  'invalid_exact_evm_payload_authorization_value_mismatch',
  'invalid_exact_evm_payload_recipient_mismatch',
  'invalid_exact_evm_payload_signature',
  'invalid_network',
  'invalid_payload',
  'invalid_payment_requirements',
  'invalid_scheme',
  'invalid_x402_version',
  'unsupported_scheme',
  'unexpected_verify_error',
  // @x402/evm exact (EIP-3009) verification
  'invalid_exact_evm_scheme',
  'invalid_exact_evm_network_mismatch',
  'invalid_exact_evm_missing_eip712_domain',
  'invalid_exact_evm_recipient_mismatch',
  'invalid_exact_evm_signature',
  'invalid_exact_evm_authorization_value',
  'invalid_exact_evm_token_name_mismatch',
  'invalid_exact_evm_token_version_mismatch',
  'invalid_exact_evm_eip3009_not_supported',
  'invalid_exact_evm_insufficient_balance',
  'invalid_exact_evm_transaction_simulation_failed',
  'invalid_exact_evm_failed_to_parse_signature',
  'eip6492_factory_not_allowed',
  'unsupported_payload_type',
  'asset_not_deployed_contract',
]);

/**
 * Whether a settle refusal's reason proves that the refused call moved nothing.
 * @param reason - the facilitator's `errorReason`
 * @returns true for a reason of {@link NOTHING_MOVED_REASONS}
 */
export function provesNothingMoved(reason: string | undefined): boolean {
  return reason !== undefined && NOTHING_MOVED_REASONS.has(reason);
}

/** How long a client waits before retrying a pending settlement, at most (the facilitator may be back). */
export const SETTLE_RETRY_AFTER_SECONDS = 5;

/** What the chain says a settlement came to. */
export type ChainVerdict =
  /** The transfer happened, in this transaction. */
  | { outcome: 'settled'; transaction: string }
  /** It never can happen: nothing was charged. */
  | { outcome: 'failed'; reason: 'authorization_expired' | 'authorization_canceled' | 'authorization_used_otherwise'; message: string }
  /** Not yet, or not known: the authorization may still execute. */
  | { outcome: 'pending'; reason: 'authorization_unused' | 'evm_rpc_unset' | 'evm_rpc_unavailable' | 'settlement_not_found'; retryAfterSeconds: number };

const FAILED_MESSAGES = {
  authorization_expired: 'The authorization expired before it was settled; nothing was charged. Sign a new one.',
  authorization_canceled: 'The payer canceled the authorization on chain; nothing was charged.',
  authorization_used_otherwise: 'The authorization nonce was used by another transfer; nothing was charged by this payment.',
} as const;

/**
 * Asks the chain what became of an exact-EVM authorization's settlement (EIP-3009
 * `authorizationState`, then the `AuthorizationUsed` event and its `Transfer`). Used and found:
 * settled, with its transaction. Unused, or used by no transfer of ours, and past validBefore by
 * the latest block's time: failed. Anything else, including no `EVM_RPC_URL` or an endpoint that
 * cannot be read: pending, to be retried with the same authorization.
 * @param chain - the reader over `EVM_RPC_URL`; undefined when it is not configured
 * @param row - the authorization (rail `exact-evm`)
 * @param log - for the faults that leave it pending
 * @returns the verdict
 */
export async function resolveSettlementOnChain(chain: AuthorizationChainReader | undefined, row: AuthorizationRow, log: Logger): Promise<ChainVerdict> {
  if (!chain) return { outcome: 'pending', reason: 'evm_rpc_unset', retryAfterSeconds: SETTLE_RETRY_AFTER_SECONDS };
  if (row.payment.rail !== 'exact-evm') throw new Error('only exact-EVM settlements are read from the chain');
  const auth = (row.payment.payload as { payload: { authorization: Eip3009Authorization } }).payload.authorization;
  let state;
  try {
    state = await chain.read({
      asset: row.asset as `0x${string}`,
      from: auth.from,
      to: auth.to,
      value: BigInt(auth.value),
      validBefore: BigInt(auth.validBefore),
      nonce: auth.nonce,
    });
  } catch (err) {
    // viem's full message repeats the request (addresses in the calldata): log its short form only.
    const fault = err instanceof Error ? ((err as { shortMessage?: string }).shortMessage ?? err.name) : String(err);
    log.warn({ fault, authorizationId: row.id }, 'settlement state unreadable: evm rpc failed');
    return { outcome: 'pending', reason: 'evm_rpc_unavailable', retryAfterSeconds: SETTLE_RETRY_AFTER_SECONDS };
  }
  switch (state.state) {
    case 'executed':
      return { outcome: 'settled', transaction: state.transaction };
    case 'spent-otherwise':
      return { outcome: 'failed', reason: state.reason, message: FAILED_MESSAGES[state.reason] };
    case 'used-not-found':
      log.warn({ authorizationId: row.id, payer: maskIdentifier(row.payer) }, 'authorization used on chain, transaction not found in the searched blocks');
      return { outcome: 'pending', reason: 'settlement_not_found', retryAfterSeconds: SETTLE_RETRY_AFTER_SECONDS };
    case 'unused':
      if (state.expired) return { outcome: 'failed', reason: 'authorization_expired', message: FAILED_MESSAGES.authorization_expired };
      // Once it expired, a retry gets the final answer; until then, the facilitator may be back.
      return { outcome: 'pending', reason: 'authorization_unused', retryAfterSeconds: Math.max(1, Math.min(SETTLE_RETRY_AFTER_SECONDS, state.secondsLeft + 1)) };
  }
}

/** Where a recorded settlement is published. */
export interface SettlementRecorder {
  dataSource: DataSource;
  /** A normal connection for publishing to the live feed. */
  redis: Redis;
  queuePrefix: string;
  log: Logger;
}

/**
 * Marks a scored authorization settled with its transaction, writes its ledger row, and
 * publishes the live-feed event (best effort). Idempotent: whoever records first (the settlement
 * job or the reconciler) writes the row; the others get undefined.
 * @param deps - DataSource, feed connection, prefix, logger
 * @param id - the authorization
 * @param transaction - the settlement's transaction hash (or the legacy transfer's signature)
 * @returns the new ledger entry, or undefined when it was settled before
 */
export async function recordAndPublishSettlement(deps: SettlementRecorder, id: string, transaction: string): Promise<RecordedSettlement | undefined> {
  const entry = await recordSettlement(deps.dataSource, id, transaction);
  if (entry) await publishSettlement(deps.redis, deps.queuePrefix, entry).catch((err: unknown) => deps.log.warn({ err }, 'feed publish failed'));
  return entry;
}

/**
 * The answer to a paid request whose settlement is not confirmed yet: 504 `settlement_pending`
 * with `Retry-After`. Money may have moved, so it never says that nothing was charged; the same
 * authorization with the same request resumes it and is never charged twice.
 * @param retryAfterSeconds - when a retry makes sense
 * @param details - machine-readable details (e.g. the result id)
 * @param cause - the underlying fault, for logs
 * @returns the error to throw
 */
export function settlementPendingError(retryAfterSeconds: number, details: Record<string, unknown>, cause?: unknown): AppError {
  return new AppError(
    504,
    'settlement_pending',
    'The settlement of this payment is not confirmed yet, so the result is withheld. Retry the same request with the same authorization: it is never charged twice.',
    { details: { ...details, retry_after_seconds: retryAfterSeconds }, headers: { 'Retry-After': String(retryAfterSeconds) }, expose: true, cause },
  );
}
