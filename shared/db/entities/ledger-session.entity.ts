import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { PaymentAuthorization } from './payment-authorization.entity';

/** One settled paid session; written once per authorization, in the transaction that marks it settled. */
@Entity({ name: 'ledger_sessions' })
@Unique('uq_ledger_sessions_authorization_id', ['authorizationId'])
@Unique('uq_ledger_sessions_result_id', ['resultId'])
@Index('ix_ledger_sessions_payer', ['payer'])
@Index('ix_ledger_sessions_settled_at', ['settledAt'])
// Public certificates are addressed by their settlement transaction (issue 12).
@Index('ix_ledger_sessions_transaction', ['transaction'])
export class LedgerSession {
  @PrimaryGeneratedColumn('uuid', { name: 'id', primaryKeyConstraintName: 'pk_ledger_sessions' })
  id!: string;

  @Column({ name: 'authorization_id', type: 'uuid' })
  authorizationId!: string;

  @ManyToOne(() => PaymentAuthorization, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'authorization_id', foreignKeyConstraintName: 'fk_ledger_sessions_authorization_id' })
  authorization?: PaymentAuthorization;

  @Column({ name: 'product', type: 'text' })
  product!: string;

  @Column({ name: 'tier', type: 'text', nullable: true })
  tier!: string | null;

  @Column({ name: 'profile', type: 'text', nullable: true })
  profile!: string | null;

  @Column({ name: 'score', type: 'double precision', nullable: true })
  score!: number | null;

  @Column({ name: 'passed', type: 'boolean', nullable: true })
  passed!: boolean | null;

  @Column({ name: 'result_id', type: 'uuid' })
  resultId!: string;

  @Column({ name: 'network', type: 'text' })
  network!: string;

  @Column({ name: 'asset', type: 'text' })
  asset!: string;

  @Column({ name: 'amount', type: 'numeric', precision: 78, scale: 0 })
  amount!: string;

  @Column({ name: 'transaction', type: 'text' })
  transaction!: string;

  @Column({ name: 'payer', type: 'text' })
  payer!: string;

  @Column({ name: 'request_hash', type: 'text' })
  requestHash!: string;

  /** When the session started (the authorization was reserved). */
  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'settled_at', type: 'timestamptz', default: () => 'now()' })
  settledAt!: Date;
}
