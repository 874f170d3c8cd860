import type { Address, Signature } from '@solana/kit';

/**
 * Why a legacy SOL payment was refused (x402's `invalidReason`). These are expected outcomes
 * about the payer's transaction, answered with 402; a node that cannot answer is an exception.
 */
export type SolRefusalReason =
  /** No finalized or confirmed transaction has this signature. */
  | 'transaction_not_found'
  /** The transaction is confirmed but not finalized yet: retry the same proof shortly. */
  | 'transaction_not_finalized'
  /** The transaction landed but failed (`meta.err`), so no lamports moved. */
  | 'transaction_failed'
  /** A transaction version other than legacy and 0. */
  | 'unsupported_transaction_version'
  /** The signature is not the transaction id (its first signature). */
  | 'signature_mismatch'
  /** The fee payer's signature does not verify over the message. */
  | 'invalid_signature'
  /** The fee payer is not the claimed payer. */
  | 'payer_mismatch'
  /** A transfer's source or recipient is loaded from an address lookup table, which cannot be checked offline. */
  | 'address_lookup_table_unsupported'
  /** No System Program transfer from the payer to the treasury. */
  | 'no_transfer_to_treasury'
  /** The transfers to the treasury add up to less than the price. */
  | 'amount_too_low'
  /** The transaction landed before the oldest block time a payment may have. */
  | 'transaction_too_old'
  /** The node does not know the transaction's block time, so its age cannot be checked. */
  | 'transaction_age_unknown';

/** A payment the chain confirms: finalized, signed by the payer, paying the treasury at least the price. */
export interface VerifiedSolTransfer {
  readonly ok: true;
  /** Lamports moved from the payer to the treasury by this transaction (u64, hence bigint). */
  readonly lamports: bigint;
  /** The slot the transaction landed in. */
  readonly slot: bigint;
  /** Unix seconds of the block, or null when the node does not know it. */
  readonly blockTime: number | null;
  /** The fee payer, equal to the claimed payer. */
  readonly payer: Address;
  /** The transaction id that was checked. */
  readonly signature: Signature;
}

/** A payment the chain does not confirm, with a stable reason and one human sentence. */
export interface SolTransferRefusal {
  readonly ok: false;
  readonly reason: SolRefusalReason;
  readonly message: string;
}

/** The outcome of `verifySolTransfer`: verified or refused (never both, never a throw for a refusal). */
export type SolTransferVerification = VerifiedSolTransfer | SolTransferRefusal;

/**
 * Builds a refusal.
 * @param reason - the stable reason
 * @param message - one human sentence for the payer
 * @returns the refusal value
 */
export function refuse(reason: SolRefusalReason, message: string): SolTransferRefusal {
  return { ok: false, reason, message };
}
