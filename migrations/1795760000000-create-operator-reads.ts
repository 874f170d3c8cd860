import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operator reads: the outreach status (lead id to done, with who set it and when) and
 * the daily view counters of the public result and certificate pages (the first step of the
 * identity-free conversion funnel: counts per UTC day and page kind, nothing about the viewer).
 * `updated_by` names an operator credential but has no foreign key: the status outlives a
 * credential's removal, and the credential tables stay truncatable on their own.
 */
export class CreateOperatorReads1795760000000 implements MigrationInterface {
  name = 'CreateOperatorReads1795760000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE outreach_status (
        lead_id text NOT NULL,
        done boolean NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        updated_by uuid NULL,
        CONSTRAINT pk_outreach_status PRIMARY KEY (lead_id),
        CONSTRAINT ck_outreach_status_lead_id CHECK (lead_id ~ '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$')
      )`);
    await queryRunner.query(`
      CREATE TABLE public_result_views (
        day date NOT NULL,
        page text NOT NULL,
        views bigint NOT NULL DEFAULT 0,
        CONSTRAINT pk_public_result_views PRIMARY KEY (day, page),
        CONSTRAINT ck_public_result_views_page CHECK (page IN ('result', 'certificate')),
        CONSTRAINT ck_public_result_views_views CHECK (views >= 0)
      )`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE public_result_views`);
    await queryRunner.query(`DROP TABLE outreach_status`);
  }
}
