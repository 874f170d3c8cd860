import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The embedded check's answers: one row per charged check, written in the same statement that
 * takes the bundle credit, so a row exists exactly when its credit was spent. A row holds the
 * keyed fingerprint of the inputs (HMAC, so a short draft cannot be recovered by guessing) and the
 * answer (issue codes and offsets, never a quote of the draft). The key is stored as a hash, once
 * per bundle; a keyless call leaves `key_hash` null. Rows are kept until their key's replay
 * window ends (`expires_at`), then swept.
 */
export class CreateEmbedChecks1795786340000 implements MigrationInterface {
  name = 'CreateEmbedChecks1795786340000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE embed_checks (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        bundle_id uuid NOT NULL,
        key_hash text NULL,
        fingerprint text NOT NULL,
        mode text NOT NULL,
        response jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        CONSTRAINT pk_embed_checks PRIMARY KEY (id),
        CONSTRAINT uq_embed_checks_key UNIQUE (bundle_id, key_hash),
        CONSTRAINT fk_embed_checks_bundle_id FOREIGN KEY (bundle_id) REFERENCES bundles (id) ON DELETE CASCADE,
        CONSTRAINT ck_embed_checks_mode CHECK (mode IN ('structural', 'contextual'))
      )`);
    await queryRunner.query(`CREATE INDEX ix_embed_checks_expires_at ON embed_checks (expires_at)`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_embed_checks_expires_at`);
    await queryRunner.query(`DROP TABLE embed_checks`);
  }
}
