import { Check, Column, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** Where a paid call is in its life: work running, result stored awaiting settlement, settled. */
export type AuthorizationStatus = 'reserved' | 'scored' | 'settled';

/**
 * One payment authorization, reserved before any work starts. The unique key (network, asset,
 * payer, nonce) is the double-spend guard the protocol leaves to the server: the on-chain nonce
 * flips only at settlement, so concurrent requests carrying one authorization meet here.
 */
@Entity({ name: 'payment_authorizations' })
@Unique('uq_payment_authorizations_nonce', ['network', 'asset', 'payer', 'nonce'])
@Unique('uq_payment_authorizations_result_id', ['resultId'])
@Check('ck_payment_authorizations_rail', `rail IN ('exact-evm', 'sol-transfer')`)
@Check('ck_payment_authorizations_status', `status IN ('reserved', 'scored', 'settled')`)
@Check('ck_payment_authorizations_request_hash', `request_hash ~ '^[0-9a-f]{64}$'`)
@Check('ck_payment_authorizations_amount', 'amount > 0')
@Check('ck_payment_authorizations_settled', `(status = 'settled') = (transaction IS NOT NULL AND settled_at IS NOT NULL)`)
@Check('ck_payment_authorizations_settle_failed', `settle_failed_at IS NULL OR status = 'scored'`)
@Index('ix_payment_authorizations_unsettled', ['updatedAt'], { where: `status = 'scored' AND settle_failed_at IS NULL` })
export class PaymentAuthorization {
  @PrimaryGeneratedColumn('uuid', { name: 'id', primaryKeyConstraintName: 'pk_payment_authorizations' })
  id!: string;

  /** `exact-evm` (EIP-3009 through a facilitator) or `sol-transfer` (legacy, already on chain). */
  @Column({ name: 'rail', type: 'text' })
  rail!: string;

  @Column({ name: 'network', type: 'text' })
  network!: string;

  /** Token address (lowercase) or `SOL`. */
  @Column({ name: 'asset', type: 'text' })
  asset!: string;

  /** Lowercase EVM address or base58 Solana address. */
  @Column({ name: 'payer', type: 'text' })
  payer!: string;

  /** EIP-3009 nonce (bytes32 hex) or the Solana transaction signature. */
  @Column({ name: 'nonce', type: 'text' })
  nonce!: string;

  @Column({ name: 'x402_version', type: 'smallint' })
  x402Version!: number;

  /** The request path the payment was made for. */
  @Column({ name: 'resource', type: 'text' })
  resource!: string;

  @Column({ name: 'product', type: 'text' })
  product!: string;

  @Column({ name: 'tier', type: 'text', nullable: true })
  tier!: string | null;

  /** Atomic units (USDC micro-units or lamports), a decimal string. */
  @Column({ name: 'amount', type: 'numeric', precision: 78, scale: 0 })
  amount!: string;

  /** SHA-256 of the canonical request: the same authorization with another request is a 409. */
  @Column({ name: 'request_hash', type: 'text' })
  requestHash!: string;

  /** Public id of the result; chosen at reservation so every replay names the same result. */
  @Column({ name: 'result_id', type: 'uuid' })
  resultId!: string;

  @Column({ name: 'status', type: 'text', default: 'reserved' })
  status!: AuthorizationStatus;

  /** What settlement needs: the payment payload and the matched requirement. */
  @Column({ name: 'payment', type: 'jsonb' })
  payment!: unknown;

  /** The response body, stored before settlement so a lost response can be replayed. */
  @Column({ name: 'response', type: 'jsonb', nullable: true })
  response!: unknown;

  /** What the ledger row needs (profile, score, passed). */
  @Column({ name: 'summary', type: 'jsonb', nullable: true })
  summary!: unknown;

  /** A consenting caller's text above the calibration threshold, moved to calibration_shares at settlement. */
  @Column({ name: 'calibration_text', type: 'text', nullable: true })
  calibrationText!: string | null;

  @Column({ name: 'settle_attempts', type: 'integer', default: 0 })
  settleAttempts!: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  /**
   * Since when a settlement of this authorization was sent without a known outcome (the answer was
   * lost, or did not prove that nothing moved, and the chain did not settle the question). Set:
   * the reconciler asks the chain until it knows. Kept on a row settled later, as its trace.
   */
  @Column({ name: 'settle_unknown_since', type: 'timestamptz', nullable: true })
  settleUnknownSince!: Date | null;

  /**
   * When the chain showed this authorization can never execute any more (expired unused, or its
   * nonce used with no transfer of ours): the settlement failed for good and nothing was charged.
   * The reason is in `last_error`; the row stays `scored` and a replay answers the failure.
   */
  @Column({ name: 'settle_failed_at', type: 'timestamptz', nullable: true })
  settleFailedAt!: Date | null;

  @Column({ name: 'transaction', type: 'text', nullable: true })
  transaction!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;

  @Column({ name: 'settled_at', type: 'timestamptz', nullable: true })
  settledAt!: Date | null;
}
