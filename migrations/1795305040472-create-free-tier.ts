import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Free tier: callers (hashed key, lifetime count, consent, wishlist), wishlist items, free corpus. */
export class CreateFreeTier1795305040472 implements MigrationInterface {
  name = 'CreateFreeTier1795305040472';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE free_callers (
        caller_hash text NOT NULL,
        scores_used integer NOT NULL DEFAULT 0,
        reservations integer NOT NULL DEFAULT 0,
        consented_at timestamptz NULL,
        wishlist_submitted boolean NOT NULL DEFAULT false,
        wishlist_items integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_free_callers PRIMARY KEY (caller_hash),
        CONSTRAINT ck_free_callers_caller_hash CHECK (caller_hash ~ '^[0-9a-f]{64}$'),
        CONSTRAINT ck_free_callers_scores_used CHECK (scores_used >= 0),
        CONSTRAINT ck_free_callers_reservations CHECK (reservations >= scores_used),
        CONSTRAINT ck_free_callers_wishlist_items CHECK (wishlist_items >= 0)
      )`);
    await queryRunner.query(`
      CREATE TABLE wishlist_items (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        caller_hash text NOT NULL,
        text text NOT NULL,
        category text NULL,
        quarantined boolean NOT NULL DEFAULT false,
        quarantine_reason text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_wishlist_items PRIMARY KEY (id),
        CONSTRAINT fk_wishlist_items_caller_hash FOREIGN KEY (caller_hash)
          REFERENCES free_callers (caller_hash) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX ix_wishlist_items_caller_hash ON wishlist_items (caller_hash)`);
    await queryRunner.query(`
      CREATE TABLE free_corpus_entries (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        job_id text NOT NULL,
        caller_hash text NOT NULL,
        profile text NULL,
        text text NOT NULL,
        response_delay_seconds double precision NULL,
        eq_score double precision NULL,
        human_likeness double precision NOT NULL,
        passed boolean NULL,
        scorer_version text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_free_corpus_entries PRIMARY KEY (id),
        CONSTRAINT uq_free_corpus_entries_job_id UNIQUE (job_id),
        CONSTRAINT fk_free_corpus_entries_caller_hash FOREIGN KEY (caller_hash)
          REFERENCES free_callers (caller_hash) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX ix_free_corpus_entries_profile ON free_corpus_entries (profile)`);
    await queryRunner.query(`CREATE INDEX ix_free_corpus_entries_caller_hash ON free_corpus_entries (caller_hash)`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_free_corpus_entries_caller_hash`);
    await queryRunner.query(`DROP INDEX ix_free_corpus_entries_profile`);
    await queryRunner.query(`DROP TABLE free_corpus_entries`);
    await queryRunner.query(`DROP INDEX ix_wishlist_items_caller_hash`);
    await queryRunner.query(`DROP TABLE wishlist_items`);
    await queryRunner.query(`DROP TABLE free_callers`);
  }
}
