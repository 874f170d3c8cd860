import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { RoleplayRoom } from './roleplay-room.entity';

/**
 * One scored turn of a role-play room. The reply's text is never stored: only its scores, the
 * asker's declared feeling (private until the room completes) and the helper's reading of it.
 */
@Entity({ name: 'roleplay_turns' })
@Unique('uq_roleplay_turns_room_turn', ['roomId', 'turnNo'])
@Check('ck_roleplay_turns_turn_no', 'turn_no >= 1 AND turn_no <= 8')
@Check('ck_roleplay_turns_chair', `chair IN ('opener', 'joiner')`)
@Check('ck_roleplay_turns_role', `role IN ('asker', 'helper')`)
@Check('ck_roleplay_turns_feeling', `(role = 'asker') = (feeling IS NOT NULL)`)
@Check('ck_roleplay_turns_reading', `(role = 'helper') = (reading_correct IS NOT NULL)`)
export class RoleplayTurn {
  @PrimaryGeneratedColumn('uuid', { name: 'id', primaryKeyConstraintName: 'pk_roleplay_turns' })
  id!: string;

  @Column({ name: 'room_id', type: 'uuid' })
  roomId!: string;

  @ManyToOne(() => RoleplayRoom, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'room_id', foreignKeyConstraintName: 'fk_roleplay_turns_room_id' })
  room?: RoleplayRoom;

  @Column({ name: 'turn_no', type: 'integer' })
  turnNo!: number;

  @Column({ name: 'chair', type: 'text' })
  chair!: 'opener' | 'joiner';

  @Column({ name: 'role', type: 'text' })
  role!: 'asker' | 'helper';

  /** An ask turn's declared feeling. */
  @Column({ name: 'feeling', type: 'text', nullable: true })
  feeling!: string | null;

  /** A help turn's reading (null when the reply named no feeling). */
  @Column({ name: 'feeling_read', type: 'text', nullable: true })
  feelingRead!: string | null;

  @Column({ name: 'reading_correct', type: 'boolean', nullable: true })
  readingCorrect!: boolean | null;

  @Column({ name: 'eq_score', type: 'double precision' })
  eqScore!: number;

  @Column({ name: 'passed', type: 'boolean' })
  passed!: boolean;

  @Column({ name: 'human_likeness', type: 'double precision' })
  humanLikeness!: number;

  /** The turn's score in the room report (see shared/roleplay/turn-plan.ts). */
  @Column({ name: 'turn_score', type: 'double precision' })
  turnScore!: number;

  @Column({ name: 'scorer_version', type: 'text' })
  scorerVersion!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
