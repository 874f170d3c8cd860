import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { FreeCaller } from './free-caller.entity';

/**
 * A consented free-tier reply with its score. Only the agent's reply is kept: the incoming
 * message was written by a third party and is not stored. The row is written with the
 * reservation of the free round; the score columns are filled in after the reply was sent
 * (`scored_at`), and stay NULL if the web process stopped in between.
 */
@Entity({ name: 'free_corpus_entries' })
@Unique('uq_free_corpus_entries_job_id', ['jobId'])
@Index('ix_free_corpus_entries_profile', ['profile'])
@Index('ix_free_corpus_entries_caller_hash', ['callerHash'])
export class FreeCorpusEntry {
  @PrimaryGeneratedColumn('uuid', { name: 'id', primaryKeyConstraintName: 'pk_free_corpus_entries' })
  id!: string;

  /** The scoring job of the free round (one row per reservation). */
  @Column({ name: 'job_id', type: 'text' })
  jobId!: string;

  @Column({ name: 'caller_hash', type: 'text' })
  callerHash!: string;

  @ManyToOne(() => FreeCaller, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'caller_hash', foreignKeyConstraintName: 'fk_free_corpus_entries_caller_hash' })
  caller?: FreeCaller;

  @Column({ name: 'profile', type: 'text', nullable: true })
  profile!: string | null;

  @Column({ name: 'text', type: 'text' })
  text!: string;

  @Column({ name: 'response_delay_seconds', type: 'double precision', nullable: true })
  responseDelaySeconds!: number | null;

  @Column({ name: 'eq_score', type: 'double precision', nullable: true })
  eqScore!: number | null;

  @Column({ name: 'human_likeness', type: 'double precision', nullable: true })
  humanLikeness!: number | null;

  @Column({ name: 'passed', type: 'boolean', nullable: true })
  passed!: boolean | null;

  @Column({ name: 'scorer_version', type: 'text', nullable: true })
  scorerVersion!: string | null;

  @Column({ name: 'scored_at', type: 'timestamptz', nullable: true })
  scoredAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
