import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The wording review: raters who consented judge replies whose authors consented to this use (a
 * consented free-corpus entry, a paid reply shared for calibration) on four fixed scales, and the
 * calibration report sets their ratings against the engine's. A session keeps only the SHA-256 of
 * its token and the consent version it accepted; no identity. An item points at its source row
 * and disappears with it (ON DELETE CASCADE), so text whose author withdrew is never shown or
 * counted again; the item keeps the engine's text-only values, computed once, never the text.
 * Attention-check items are the service's own text, named by a key in code.
 */
export class CreateWordingReview1795900000000 implements MigrationInterface {
  name = 'CreateWordingReview1795900000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE wording_review_sessions (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        token_hash text NOT NULL,
        consent_version text NOT NULL,
        attention_failures smallint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_wording_review_sessions PRIMARY KEY (id),
        CONSTRAINT uq_wording_review_sessions_token_hash UNIQUE (token_hash),
        CONSTRAINT ck_wording_review_sessions_token_hash CHECK (token_hash ~ '^[0-9a-f]{64}$'),
        CONSTRAINT ck_wording_review_sessions_attention_failures CHECK (attention_failures >= 0)
      )`);
    await queryRunner.query(`
      CREATE TABLE wording_review_items (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        free_corpus_entry_id uuid NULL,
        calibration_share_id uuid NULL,
        attention_check text NULL,
        scorer_version text NULL,
        engine_human double precision NULL,
        engine_warm double precision NULL,
        engine_direct double precision NULL,
        engine_hesitant double precision NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_wording_review_items PRIMARY KEY (id),
        CONSTRAINT uq_wording_review_items_free_corpus_entry_id UNIQUE (free_corpus_entry_id),
        CONSTRAINT uq_wording_review_items_calibration_share_id UNIQUE (calibration_share_id),
        CONSTRAINT uq_wording_review_items_attention_check UNIQUE (attention_check),
        CONSTRAINT fk_wording_review_items_free_corpus_entry_id FOREIGN KEY (free_corpus_entry_id)
          REFERENCES free_corpus_entries (id) ON DELETE CASCADE,
        CONSTRAINT fk_wording_review_items_calibration_share_id FOREIGN KEY (calibration_share_id)
          REFERENCES calibration_shares (id) ON DELETE CASCADE,
        CONSTRAINT ck_wording_review_items_one_source
          CHECK (num_nonnulls(free_corpus_entry_id, calibration_share_id, attention_check) = 1),
        CONSTRAINT ck_wording_review_items_engine CHECK (
          attention_check IS NOT NULL OR (
            scorer_version IS NOT NULL
            AND engine_human BETWEEN 0 AND 1 AND engine_warm BETWEEN 0 AND 1
            AND engine_direct BETWEEN 0 AND 1 AND engine_hesitant BETWEEN 0 AND 1))
      )`);
    await queryRunner.query(`
      CREATE TABLE wording_review_ratings (
        session_id uuid NOT NULL,
        item_id uuid NOT NULL,
        human smallint NOT NULL,
        warm smallint NOT NULL,
        direct smallint NOT NULL,
        hesitant smallint NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_wording_review_ratings PRIMARY KEY (session_id, item_id),
        CONSTRAINT fk_wording_review_ratings_session_id FOREIGN KEY (session_id)
          REFERENCES wording_review_sessions (id) ON DELETE CASCADE,
        CONSTRAINT fk_wording_review_ratings_item_id FOREIGN KEY (item_id)
          REFERENCES wording_review_items (id) ON DELETE CASCADE,
        CONSTRAINT ck_wording_review_ratings_scales CHECK (
          human BETWEEN 1 AND 5 AND warm BETWEEN 1 AND 5 AND direct BETWEEN 1 AND 5 AND hesitant BETWEEN 1 AND 5)
      )`);
    // The report and the next-items draw read ratings per item.
    await queryRunner.query(`CREATE INDEX ix_wording_review_ratings_item_id ON wording_review_ratings (item_id)`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_wording_review_ratings_item_id`);
    await queryRunner.query(`DROP TABLE wording_review_ratings`);
    await queryRunner.query(`DROP TABLE wording_review_items`);
    await queryRunner.query(`DROP TABLE wording_review_sessions`);
  }
}
