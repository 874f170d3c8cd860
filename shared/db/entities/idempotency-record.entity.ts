import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { PaymentAuthorization } from './payment-authorization.entity';

/** An Idempotency-Key bound to the request it first came with and the payment that request made. */
@Entity({ name: 'idempotency_records' })
export class IdempotencyRecord {
  /** SHA-256 of the path and the opaque key; the key itself is not stored. */
  @PrimaryColumn({ name: 'key_hash', type: 'text', primaryKeyConstraintName: 'pk_idempotency_records' })
  keyHash!: string;

  @Column({ name: 'request_hash', type: 'text' })
  requestHash!: string;

  @Column({ name: 'authorization_id', type: 'uuid' })
  authorizationId!: string;

  @ManyToOne(() => PaymentAuthorization, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'authorization_id', foreignKeyConstraintName: 'fk_idempotency_records_authorization_id' })
  authorization?: PaymentAuthorization;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
