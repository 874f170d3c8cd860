import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { PaymentAuthorization } from './payment-authorization.entity';
import { ReferralCode } from './referral-code.entity';

/**
 * A wallet's one referrer, bound when its first paid purchase (carrying the referrer's code)
 * settles. Every settled purchase of the referred wallet adds to its spend; the referrer has
 * earned basic credits worth the reward share of that spend, each currency at its basic price,
 * so remainders carry forward. Delivered credits became reward bundles.
 */
@Entity({ name: 'referrals' })
@Unique('uq_referrals_authorization_id', ['authorizationId'])
@Index('ix_referrals_referrer_wallet', ['referrerWallet'])
@Check('ck_referrals_not_self', 'referred_wallet <> referrer_wallet')
@Check('ck_referrals_spent', 'spent_usdc_units >= 0 AND spent_lamports >= 0')
@Check('ck_referrals_credits', 'credits_delivered >= 0 AND credits_delivered <= credits_earned')
export class Referral {
  @PrimaryColumn({ name: 'referred_wallet', type: 'text', primaryKeyConstraintName: 'pk_referrals' })
  referredWallet!: string;

  @Column({ name: 'referrer_wallet', type: 'text' })
  referrerWallet!: string;

  @ManyToOne(() => ReferralCode, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'referrer_wallet', referencedColumnName: 'wallet', foreignKeyConstraintName: 'fk_referrals_referrer_wallet' })
  referrer?: ReferralCode;

  /** The referral purchase (the referred wallet's first settled purchase). */
  @Column({ name: 'authorization_id', type: 'uuid' })
  authorizationId!: string;

  @ManyToOne(() => PaymentAuthorization, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'authorization_id', foreignKeyConstraintName: 'fk_referrals_authorization_id' })
  authorization?: PaymentAuthorization;

  /** Settled USDC spend of the referred wallet since (and including) the referral purchase, atomic units. */
  @Column({ name: 'spent_usdc_units', type: 'numeric', precision: 78, scale: 0, default: 0 })
  spentUsdcUnits!: string;

  /** Settled legacy SOL spend, lamports. */
  @Column({ name: 'spent_lamports', type: 'numeric', precision: 78, scale: 0, default: 0 })
  spentLamports!: string;

  @Column({ name: 'qualifying_purchases', type: 'integer', default: 0 })
  qualifyingPurchases!: number;

  @Column({ name: 'credits_earned', type: 'integer', default: 0 })
  creditsEarned!: number;

  @Column({ name: 'credits_delivered', type: 'integer', default: 0 })
  creditsDelivered!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
