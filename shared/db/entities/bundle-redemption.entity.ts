import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { Bundle } from './bundle.entity';

/** A redemption is `reserved` while its session is scored, then `completed` with the stored result. */
export type RedemptionStatus = 'reserved' | 'completed';

/**
 * One bundle credit spent on a basic session. The credit is taken in the transaction that inserts
 * the row and given back (row deleted) when scoring fails. With an Idempotency-Key (unique per
 * bundle) the same request replays the stored response without spending a second credit.
 * Not a ledger settlement: the purchase of the bundle was.
 */
@Entity({ name: 'bundle_redemptions' })
@Unique('uq_bundle_redemptions_key', ['bundleId', 'keyHash'])
@Unique('uq_bundle_redemptions_result_id', ['resultId'])
@Check('ck_bundle_redemptions_status', `status IN ('reserved', 'completed')`)
@Check('ck_bundle_redemptions_request_hash', `request_hash ~ '^[0-9a-f]{64}$'`)
@Check('ck_bundle_redemptions_completed', `(status = 'completed') = (response IS NOT NULL AND completed_at IS NOT NULL)`)
export class BundleRedemption {
  @PrimaryGeneratedColumn('uuid', { name: 'id', primaryKeyConstraintName: 'pk_bundle_redemptions' })
  id!: string;

  @Column({ name: 'bundle_id', type: 'uuid' })
  bundleId!: string;

  @ManyToOne(() => Bundle, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'bundle_id', foreignKeyConstraintName: 'fk_bundle_redemptions_bundle_id' })
  bundle?: Bundle;

  /** SHA-256 of the path and the Idempotency-Key, or null when the request carried none. */
  @Column({ name: 'key_hash', type: 'text', nullable: true })
  keyHash!: string | null;

  /** SHA-256 of the canonical request: the same key with another request is a 409. */
  @Column({ name: 'request_hash', type: 'text' })
  requestHash!: string;

  @Column({ name: 'result_id', type: 'uuid' })
  resultId!: string;

  @Column({ name: 'status', type: 'text', default: 'reserved' })
  status!: RedemptionStatus;

  /** The response body (never a secret), stored for replays. */
  @Column({ name: 'response', type: 'jsonb', nullable: true })
  response!: unknown;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;
}
