import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Community review: people who consented rate the service's own sample replies, and the
 * public summary sets their ratings against the engine's. A session keeps only the SHA-256 of its
 * secret, the samples it drew and the scorer version that scored them; no caller identity. A
 * response is one sample rated in one session (a second rating of it replaces the first); its
 * optional comment is kept for operators and never read by a public endpoint. Each rating row
 * carries the engine's value the person was shown, so the summary compares like with like even
 * after the scorer changes.
 */
export class CreateCommunityReview1795710000000 implements MigrationInterface {
  name = 'CreateCommunityReview1795710000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE community_review_sessions (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        secret_hash text NOT NULL,
        sample_ids text[] NOT NULL,
        scorer_version text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_community_review_sessions PRIMARY KEY (id),
        CONSTRAINT uq_community_review_sessions_secret_hash UNIQUE (secret_hash),
        CONSTRAINT ck_community_review_sessions_secret_hash CHECK (secret_hash ~ '^[0-9a-f]{64}$'),
        CONSTRAINT ck_community_review_sessions_sample_ids CHECK (cardinality(sample_ids) > 0)
      )`);
    await queryRunner.query(`CREATE INDEX ix_community_review_sessions_created_at ON community_review_sessions (created_at)`);
    await queryRunner.query(`
      CREATE TABLE community_review_responses (
        session_id uuid NOT NULL,
        sample_id text NOT NULL,
        comment text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_community_review_responses PRIMARY KEY (session_id, sample_id),
        CONSTRAINT fk_community_review_responses_session_id FOREIGN KEY (session_id)
          REFERENCES community_review_sessions (id) ON DELETE CASCADE,
        CONSTRAINT ck_community_review_responses_comment CHECK (comment IS NULL OR char_length(comment) <= 1000)
      )`);
    await queryRunner.query(`
      CREATE TABLE community_review_ratings (
        session_id uuid NOT NULL,
        sample_id text NOT NULL,
        dimension text NOT NULL,
        rating smallint NOT NULL,
        engine_value double precision NOT NULL,
        CONSTRAINT pk_community_review_ratings PRIMARY KEY (session_id, sample_id, dimension),
        CONSTRAINT fk_community_review_ratings_response FOREIGN KEY (session_id, sample_id)
          REFERENCES community_review_responses (session_id, sample_id) ON DELETE CASCADE,
        CONSTRAINT ck_community_review_ratings_dimension
          CHECK (dimension IN ('human_likeness', 'empathy', 'formality', 'directness', 'hesitation')),
        CONSTRAINT ck_community_review_ratings_rating CHECK (rating BETWEEN 1 AND 5),
        CONSTRAINT ck_community_review_ratings_engine_value CHECK (engine_value BETWEEN 0 AND 1)
      )`);
    // The summary aggregates per dimension.
    await queryRunner.query(`CREATE INDEX ix_community_review_ratings_dimension ON community_review_ratings (dimension)`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_community_review_ratings_dimension`);
    await queryRunner.query(`DROP TABLE community_review_ratings`);
    await queryRunner.query(`DROP TABLE community_review_responses`);
    await queryRunner.query(`DROP INDEX ix_community_review_sessions_created_at`);
    await queryRunner.query(`DROP TABLE community_review_sessions`);
  }
}
