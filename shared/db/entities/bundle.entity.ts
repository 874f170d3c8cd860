import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { PaymentAuthorization } from './payment-authorization.entity';

/** Where a bundle came from: a paid purchase, a referrer's reward, card credit packs, or an install's catalog plan. */
export type BundleSource = 'purchase' | 'referral-reward' | 'card' | 'catalog-plan';

/** The plan of a bundle: `bundle` and `fleet` are bought; `referral-reward` is earned; `card` holds card packs. */
export type BundlePlan = 'bundle' | 'fleet' | 'referral-reward' | 'card' | 'catalog-plan';

/**
 * Basic-score credits belonging to one wallet, redeemed with a bearer token (`X-BUNDLE-TOKEN`).
 * Only the token's SHA-256 is stored; it is null until the token is minted after settlement.
 * `credits_remaining` never goes below zero (CHECK), whatever the concurrency of redemptions.
 * A card bundle has no wallet and no authorization (its token alone spends it) and holds zero
 * credits until its first card payment is granted.
 */
@Entity({ name: 'bundles' })
@Unique('uq_bundles_token_hash', ['tokenHash'])
@Unique('uq_bundles_authorization_source', ['authorizationId', 'source'])
@Index('ix_bundles_wallet', ['wallet'])
@Check('ck_bundles_plan', `plan IN ('bundle', 'fleet', 'referral-reward', 'card', 'catalog-plan')`)
@Check('ck_bundles_source', `source IN ('purchase', 'referral-reward', 'card', 'catalog-plan')`)
@Check('ck_bundles_catalog_plan', `(source = 'catalog-plan') = (plan = 'catalog-plan')`)
@Check('ck_bundles_source_plan', `(source = 'referral-reward') = (plan = 'referral-reward')`)
@Check('ck_bundles_card_plan', `(source = 'card') = (plan = 'card')`)
@Check('ck_bundles_card_wallet', `(source = 'card') = (wallet IS NULL)`)
@Check('ck_bundles_card_authorization', `(source = 'card') = (authorization_id IS NULL)`)
@Check('ck_bundles_token_hash', `token_hash ~ '^[0-9a-f]{64}$'`)
@Check('ck_bundles_credits_total', `credits_total > 0 OR (source = 'card' AND credits_total >= 0)`)
@Check('ck_bundles_credits_remaining', 'credits_remaining >= 0 AND credits_remaining <= credits_total')
export class Bundle {
  @PrimaryGeneratedColumn('uuid', { name: 'id', primaryKeyConstraintName: 'pk_bundles' })
  id!: string;

  /** SHA-256 (hex) of the bearer token; null until minted (the first delivery after settlement, or a recovery). */
  @Column({ name: 'token_hash', type: 'text', nullable: true })
  tokenHash!: string | null;

  /** The owning wallet (lowercase EVM address or base58 Solana address): the only wallet that may redeem; null for a card bundle. */
  @Column({ name: 'wallet', type: 'text', nullable: true })
  wallet!: string | null;

  @Column({ name: 'plan', type: 'text' })
  plan!: BundlePlan;

  @Column({ name: 'source', type: 'text' })
  source!: BundleSource;

  @Column({ name: 'credits_total', type: 'integer' })
  creditsTotal!: number;

  @Column({ name: 'credits_remaining', type: 'integer' })
  creditsRemaining!: number;

  /** The purchase's authorization, or (reward) the referrer's paid call that delivered it; null for a card bundle. */
  @Column({ name: 'authorization_id', type: 'uuid', nullable: true })
  authorizationId!: string | null;

  @ManyToOne(() => PaymentAuthorization, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'authorization_id', foreignKeyConstraintName: 'fk_bundles_authorization_id' })
  authorization?: PaymentAuthorization;

  @Column({ name: 'token_issued_at', type: 'timestamptz', nullable: true })
  tokenIssuedAt!: Date | null;

  /** The signed timestamp of the last recovery: a recovery must be signed later (one use per signature). */
  @Column({ name: 'last_recovery_signed_at', type: 'timestamptz', nullable: true })
  lastRecoverySignedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
