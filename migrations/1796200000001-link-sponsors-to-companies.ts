import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A pilot sponsor may belong to a company of the company program: the company's plan holds a
 * number of sponsorship slots, and each sponsor linked to it takes one. Deleting a company unlinks
 * its sponsors (they stay, as the operator's).
 */
export class LinkSponsorsToCompanies1796200000001 implements MigrationInterface {
  name = 'LinkSponsorsToCompanies1796200000001';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE pilot_sponsors ADD COLUMN company_id uuid NULL`);
    await queryRunner.query(
      `ALTER TABLE pilot_sponsors ADD CONSTRAINT fk_pilot_sponsors_company FOREIGN KEY (company_id) REFERENCES aei_companies (id) ON DELETE SET NULL`,
    );
    await queryRunner.query(`CREATE INDEX ix_pilot_sponsors_company ON pilot_sponsors (company_id) WHERE company_id IS NOT NULL`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_pilot_sponsors_company`);
    await queryRunner.query(`ALTER TABLE pilot_sponsors DROP CONSTRAINT fk_pilot_sponsors_company`);
    await queryRunner.query(`ALTER TABLE pilot_sponsors DROP COLUMN company_id`);
  }
}
