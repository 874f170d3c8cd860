import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { PaymentAuthorization } from './payment-authorization.entity';

/** One settled paid session; written once per authorization, in the transaction that marks it settled. */
@Entity({ name: 'ledger_sessions' })
@Unique('uq_ledger_sessions_authorization_id', ['authorizationId'])
@Unique('uq_ledger_sessions_result_id', ['resultId'])
@Index('ix_ledger_sessions_payer', ['payer'])
@Index('ix_ledger_sessions_settled_at', ['settledAt'])
@Index('ix_ledger_sessions_payer_settled', ['payer', 'settledAt', 'id'])
@Check('ck_ledger_sessions_persona_targets', `persona_targets IS NULL OR jsonb_typeof(persona_targets) = 'object'`)
@Check('ck_ledger_sessions_measured_dimensions', `measured_dimensions IS NULL OR jsonb_typeof(measured_dimensions) = 'object'`)
// Public certificates are addressed by their settlement transaction.
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

  /**
   * The persona targets in force when the session was scored, per text dimension
   * (`{ formality: { target, tolerance }, ... }`); frozen, so a later profile change never rewrites
   * history. Null for sessions settled before they were recorded, and for products that score none.
   */
  @Column({ name: 'persona_targets', type: 'jsonb', nullable: true })
  personaTargets!: Record<string, { target: number; tolerance: number }> | null;

  /** The measured value of each text dimension (`{ formality: 0.41, ... }`), beside the targets. */
  @Column({ name: 'measured_dimensions', type: 'jsonb', nullable: true })
  measuredDimensions!: Record<string, number> | null;

  /** The reply's text, only where the wallet opted in (`store_text_for_training`); otherwise null. */
  @Column({ name: 'training_text', type: 'text', nullable: true })
  trainingText!: string | null;
}
