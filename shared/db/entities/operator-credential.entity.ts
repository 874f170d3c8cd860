import { Check, Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** What a credential may do: `operator` reads (metrics, operator reads); `admin` changes (network config, queue dashboard). */
export type OperatorRole = 'operator' | 'admin';

/**
 * An operator or admin credential. Only the SHA-256 (hex) of its bearer token is stored: the token
 * itself is shown once, when minted, and never again.
 */
@Entity({ name: 'operator_credentials' })
@Unique('uq_operator_credentials_token_hash', ['tokenHash'])
@Check('ck_operator_credentials_role', `role IN ('operator', 'admin')`)
@Check('ck_operator_credentials_token_hash', `token_hash ~ '^[0-9a-f]{64}$'`)
@Check('ck_operator_credentials_expiry', 'expires_at > created_at')
export class OperatorCredential {
  @PrimaryGeneratedColumn('uuid', { name: 'id', primaryKeyConstraintName: 'pk_operator_credentials' })
  id!: string;

  @Column({ name: 'role', type: 'text' })
  role!: OperatorRole;

  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  /** Who or what it is for, as the minting admin wrote it (never part of the token). */
  @Column({ name: 'label', type: 'text', nullable: true })
  label!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
