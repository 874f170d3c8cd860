import { Check, Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

/**
 * A paid reply shared for calibration (`share_for_calibration`), kept only above the 85.0 threshold
 * and only once its session settled, for manual review. No wallet is stored with it.
 */
@Entity({ name: 'calibration_shares' })
@Unique('uq_calibration_shares_result_id', ['resultId'])
@Check('ck_calibration_shares_eq_score', 'eq_score > 85')
export class CalibrationShare {
  @PrimaryGeneratedColumn('uuid', { name: 'id', primaryKeyConstraintName: 'pk_calibration_shares' })
  id!: string;

  @Column({ name: 'result_id', type: 'uuid' })
  resultId!: string;

  @Column({ name: 'profile', type: 'text' })
  profile!: string;

  @Column({ name: 'eq_score', type: 'double precision' })
  eqScore!: number;

  @Column({ name: 'text', type: 'text' })
  text!: string;

  @Column({ name: 'scorer_version', type: 'text' })
  scorerVersion!: string;

  @Column({ name: 'reviewed', type: 'boolean', default: false })
  reviewed!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
