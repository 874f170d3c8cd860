import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The operators' outreach to prospective program companies: research notes on a company, and
 * outreach drafts for it with the engine's score of each draft against the profile it should read
 * like. Integer ids (the paths name them). The service never sends anything: `sent` records that an
 * operator sent the text themselves.
 */
export class CreateAeiOutreach1796000000002 implements MigrationInterface {
  name = 'CreateAeiOutreach1796000000002';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE aei_outreach_research (
        id integer GENERATED ALWAYS AS IDENTITY,
        company_name text NOT NULL,
        site text NOT NULL,
        why_it_fits text NOT NULL,
        source text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_aei_outreach_research PRIMARY KEY (id)
      )`);
    await queryRunner.query(`
      CREATE TABLE aei_outreach_drafts (
        id integer GENERATED ALWAYS AS IDENTITY,
        research_id integer NOT NULL,
        profile text NOT NULL,
        subject text NOT NULL,
        body text NOT NULL,
        status text NOT NULL DEFAULT 'draft',
        score jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        approved_at timestamptz NULL,
        sent_at timestamptz NULL,
        CONSTRAINT pk_aei_outreach_drafts PRIMARY KEY (id),
        CONSTRAINT fk_aei_outreach_drafts_research_id FOREIGN KEY (research_id) REFERENCES aei_outreach_research (id) ON DELETE CASCADE,
        CONSTRAINT ck_aei_outreach_drafts_status CHECK (status IN ('draft', 'approved', 'sent')),
        CONSTRAINT ck_aei_outreach_drafts_approved CHECK ((status = 'draft') = (approved_at IS NULL)),
        CONSTRAINT ck_aei_outreach_drafts_sent CHECK ((status = 'sent') = (sent_at IS NOT NULL))
      )`);
    await queryRunner.query(`CREATE INDEX ix_aei_outreach_drafts_research_id ON aei_outreach_drafts (research_id)`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_aei_outreach_drafts_research_id`);
    await queryRunner.query(`DROP TABLE aei_outreach_drafts`);
    await queryRunner.query(`DROP TABLE aei_outreach_research`);
  }
}
