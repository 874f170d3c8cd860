import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Catalog attribution: partners an operator lists (each with its conversion signing secret,
 * sealed with a server key because verifying a signature needs the secret itself), the handoffs a
 * completed selection records (no caller identity, no query text), the message ids of signed
 * conversion callbacks already processed (replays are refused), and the conversions counted, at
 * most one per handoff.
 */
export class CreateCatalogAttribution1796150000000 implements MigrationInterface {
  name = 'CreateCatalogAttribution1796150000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE catalog_partners (
        id text NOT NULL,
        name text NOT NULL,
        summary text NOT NULL,
        url text NOT NULL,
        install_kind text NOT NULL,
        job_slugs text[] NOT NULL,
        signing_secret_sealed text NOT NULL,
        created_by uuid NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_catalog_partners PRIMARY KEY (id),
        CONSTRAINT ck_catalog_partners_install_kind CHECK (install_kind IN ('snippet', 'mcp_config', 'http_api', 'none'))
      )`);
    await queryRunner.query(`
      CREATE TABLE catalog_handoffs (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        job_slug text NOT NULL,
        offering_id text NOT NULL,
        partner_id text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        attribution_expires_at timestamptz NOT NULL,
        CONSTRAINT pk_catalog_handoffs PRIMARY KEY (id),
        CONSTRAINT fk_catalog_handoffs_partner_id FOREIGN KEY (partner_id) REFERENCES catalog_partners (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX ix_catalog_handoffs_partner_id ON catalog_handoffs (partner_id) WHERE partner_id IS NOT NULL`);
    await queryRunner.query(`
      CREATE TABLE catalog_conversion_messages (
        partner_id text NOT NULL,
        message_id text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_catalog_conversion_messages PRIMARY KEY (partner_id, message_id),
        CONSTRAINT fk_catalog_conversion_messages_partner_id FOREIGN KEY (partner_id) REFERENCES catalog_partners (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`
      CREATE TABLE catalog_conversions (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        handoff_id uuid NOT NULL,
        partner_id text NOT NULL,
        message_id text NOT NULL,
        event_type text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_catalog_conversions PRIMARY KEY (id),
        CONSTRAINT uq_catalog_conversions_handoff_id UNIQUE (handoff_id),
        CONSTRAINT fk_catalog_conversions_handoff_id FOREIGN KEY (handoff_id) REFERENCES catalog_handoffs (id) ON DELETE CASCADE,
        CONSTRAINT fk_catalog_conversions_message FOREIGN KEY (partner_id, message_id) REFERENCES catalog_conversion_messages (partner_id, message_id) ON DELETE CASCADE
      )`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE catalog_conversions`);
    await queryRunner.query(`DROP TABLE catalog_conversion_messages`);
    await queryRunner.query(`DROP INDEX ix_catalog_handoffs_partner_id`);
    await queryRunner.query(`DROP TABLE catalog_handoffs`);
    await queryRunner.query(`DROP TABLE catalog_partners`);
  }
}
