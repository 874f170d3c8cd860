import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { FreeCaller } from './free-caller.entity';

/** A free feedback item; junk is kept but quarantined, and the caller is not told. */
@Entity({ name: 'wishlist_items' })
@Index('ix_wishlist_items_caller_hash', ['callerHash'])
export class WishlistItem {
  @PrimaryGeneratedColumn('uuid', { name: 'id', primaryKeyConstraintName: 'pk_wishlist_items' })
  id!: string;

  @Column({ name: 'caller_hash', type: 'text' })
  callerHash!: string;

  @ManyToOne(() => FreeCaller, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'caller_hash', foreignKeyConstraintName: 'fk_wishlist_items_caller_hash' })
  caller?: FreeCaller;

  @Column({ name: 'text', type: 'text' })
  text!: string;

  @Column({ name: 'category', type: 'text', nullable: true })
  category!: string | null;

  @Column({ name: 'quarantined', type: 'boolean', default: false })
  quarantined!: boolean;

  /** Which junk rule fired (internal; never returned). */
  @Column({ name: 'quarantine_reason', type: 'text', nullable: true })
  quarantineReason!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
