import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Coaching.
 * - `coaching_enrollments`: one per paid enrollment (unique per authorization, so a resumed
 *   payment finds the same one). `attempts_left` only moves by conditional updates and a CHECK
 *   keeps it in 0..attempts_total. The drill secret is stored only as its SHA-256 (minted on the
 *   first delivery). `certificate_id` and the frozen `certificate` summary are set once, when
 *   every drill bar and the average bar are cleared.
 * - `coaching_attempts`: one per counted attempt: its score against the drill's bar, never the
 *   submitted text. `failed` marks an attempt whose scoring failed; its attempt was given back.
 */
export class CreateCoaching1795740000000 implements MigrationInterface {
  name = 'CreateCoaching1795740000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE coaching_enrollments (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        pack_id text NOT NULL,
        wallet text NOT NULL,
        authorization_id uuid NOT NULL,
        attempts_total integer NOT NULL,
        attempts_left integer NOT NULL,
        secret_hash text NULL,
        certificate_id text NULL,
        certificate jsonb NULL,
        certified_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_coaching_enrollments PRIMARY KEY (id),
        CONSTRAINT uq_coaching_enrollments_authorization_id UNIQUE (authorization_id),
        CONSTRAINT uq_coaching_enrollments_secret_hash UNIQUE (secret_hash),
        CONSTRAINT uq_coaching_enrollments_certificate_id UNIQUE (certificate_id),
        CONSTRAINT fk_coaching_enrollments_authorization_id FOREIGN KEY (authorization_id)
          REFERENCES payment_authorizations (id) ON DELETE CASCADE,
        CONSTRAINT ck_coaching_enrollments_attempts CHECK (attempts_left >= 0 AND attempts_left <= attempts_total),
        CONSTRAINT ck_coaching_enrollments_certificate CHECK ((certificate_id IS NULL) = (certified_at IS NULL))
      )`);
    await queryRunner.query(`
      CREATE TABLE coaching_attempts (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        enrollment_id uuid NOT NULL,
        drill_id text NOT NULL,
        status text NOT NULL DEFAULT 'scoring',
        eq_score double precision NULL,
        cleared boolean NULL,
        scorer_version text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        scored_at timestamptz NULL,
        CONSTRAINT pk_coaching_attempts PRIMARY KEY (id),
        CONSTRAINT fk_coaching_attempts_enrollment_id FOREIGN KEY (enrollment_id)
          REFERENCES coaching_enrollments (id) ON DELETE CASCADE,
        CONSTRAINT ck_coaching_attempts_status CHECK (status IN ('scoring', 'scored', 'failed')),
        CONSTRAINT ck_coaching_attempts_scored CHECK ((status = 'scored') = (eq_score IS NOT NULL))
      )`);
    await queryRunner.query(`CREATE INDEX ix_coaching_attempts_enrollment_id_drill_id ON coaching_attempts (enrollment_id, drill_id)`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE coaching_attempts`);
    await queryRunner.query(`DROP TABLE coaching_enrollments`);
  }
}
