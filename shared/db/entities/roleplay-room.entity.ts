import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { PaymentAuthorization } from './payment-authorization.entity';

/**
 * A room's state: `pending` (paid work done, not yet delivered after settlement), `open` (joinable
 * for 48 hours), `joined`, `completed` (eight turns taken) or `expired` (nobody joined in time).
 */
export type RoomState = 'pending' | 'open' | 'joined' | 'completed' | 'expired';

/**
 * A role-play room between two bots. The participants' session secrets are stored only
 * as SHA-256 hashes, never equal to each other (CHECK).
 */
@Entity({ name: 'roleplay_rooms' })
@Unique('uq_roleplay_rooms_authorization_id', ['authorizationId'])
@Unique('uq_roleplay_rooms_opener_secret_hash', ['openerSecretHash'])
@Unique('uq_roleplay_rooms_joiner_secret_hash', ['joinerSecretHash'])
@Index('ix_roleplay_rooms_open', ['expiresAt'], { where: `state = 'open'` })
@Check('ck_roleplay_rooms_state', `state IN ('pending', 'open', 'joined', 'completed', 'expired')`)
@Check('ck_roleplay_rooms_opener_secret_hash', `opener_secret_hash ~ '^[0-9a-f]{64}$'`)
@Check('ck_roleplay_rooms_joiner_secret_hash', `joiner_secret_hash ~ '^[0-9a-f]{64}$'`)
@Check('ck_roleplay_rooms_secrets_distinct', 'joiner_secret_hash IS NULL OR joiner_secret_hash <> opener_secret_hash')
@Check('ck_roleplay_rooms_turns_taken', 'turns_taken >= 0 AND turns_taken <= 8')
@Check('ck_roleplay_rooms_opened', `(state = 'pending') = (opener_secret_hash IS NULL AND opened_at IS NULL AND expires_at IS NULL)`)
@Check('ck_roleplay_rooms_joined', `(state IN ('joined', 'completed')) = (joiner_secret_hash IS NOT NULL AND joined_at IS NOT NULL)`)
export class RoleplayRoom {
  @PrimaryGeneratedColumn('uuid', { name: 'id', primaryKeyConstraintName: 'pk_roleplay_rooms' })
  id!: string;

  /** The opener's payment. */
  @Column({ name: 'authorization_id', type: 'uuid' })
  authorizationId!: string;

  @ManyToOne(() => PaymentAuthorization, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'authorization_id', foreignKeyConstraintName: 'fk_roleplay_rooms_authorization_id' })
  authorization?: PaymentAuthorization;

  /** The paying wallet as stored (never shown in full). */
  @Column({ name: 'opener_wallet', type: 'text' })
  openerWallet!: string;

  /** The profile every turn is scored against. */
  @Column({ name: 'profile', type: 'text' })
  profile!: string;

  @Column({ name: 'open_to_any_partner', type: 'boolean', default: false })
  openToAnyPartner!: boolean;

  @Column({ name: 'state', type: 'text', default: 'pending' })
  state!: RoomState;

  @Column({ name: 'opener_secret_hash', type: 'text', nullable: true })
  openerSecretHash!: string | null;

  @Column({ name: 'joiner_secret_hash', type: 'text', nullable: true })
  joinerSecretHash!: string | null;

  @Column({ name: 'turns_taken', type: 'integer', default: 0 })
  turnsTaken!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'opened_at', type: 'timestamptz', nullable: true })
  openedAt!: Date | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  @Column({ name: 'joined_at', type: 'timestamptz', nullable: true })
  joinedAt!: Date | null;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;

  @Column({ name: 'expired_at', type: 'timestamptz', nullable: true })
  expiredAt!: Date | null;
}
