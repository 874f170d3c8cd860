import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One free-tier caller, known only by the keyed hash of its client address.
 * `scores_used` counts lifetime free scores and never resets; `reservations` counts every round
 * ever reserved (including rounds given back) and names each scoring job uniquely.
 */
@Entity({ name: 'free_callers' })
@Check('ck_free_callers_caller_hash', `caller_hash ~ '^[0-9a-f]{64}$'`)
@Check('ck_free_callers_scores_used', 'scores_used >= 0')
@Check('ck_free_callers_reservations', 'reservations >= scores_used')
@Check('ck_free_callers_wishlist_items', 'wishlist_items >= 0')
export class FreeCaller {
  /** HMAC-SHA-256 of the client address, hex. */
  @PrimaryColumn({ name: 'caller_hash', type: 'text', primaryKeyConstraintName: 'pk_free_callers' })
  callerHash!: string;

  @Column({ name: 'scores_used', type: 'integer', default: 0 })
  scoresUsed!: number;

  @Column({ name: 'reservations', type: 'integer', default: 0 })
  reservations!: number;

  /** When the caller first sent `data_consent: true` with a scored request. */
  @Column({ name: 'consented_at', type: 'timestamptz', nullable: true })
  consentedAt!: Date | null;

  /** True once a wishlist item that was not quarantined has been accepted. */
  @Column({ name: 'wishlist_submitted', type: 'boolean', default: false })
  wishlistSubmitted!: boolean;

  /** Wishlist items submitted (quarantined ones included), for the per-caller cap. */
  @Column({ name: 'wishlist_items', type: 'integer', default: 0 })
  wishlistItems!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
