import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** A paying wallet's own referral code, returned in every paid response. */
@Entity({ name: 'referral_codes' })
@Unique('uq_referral_codes_code', ['code'])
export class ReferralCode {
  @PrimaryColumn({ name: 'wallet', type: 'text', primaryKeyConstraintName: 'pk_referral_codes' })
  wallet!: string;

  @Column({ name: 'code', type: 'text' })
  code!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
