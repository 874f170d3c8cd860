import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The database's own identity: one row with a random id, made once when the schema is created.
 * Web stamps every job with it and a worker refuses jobs stamped by another database, so two
 * stacks that share a Redis queue prefix do not take each other's jobs. It lives in
 * the database, not in a URL: web and worker may reach one database by different URLs.
 */
export class CreateDatabaseIdentity1795500000000 implements MigrationInterface {
  name = 'CreateDatabaseIdentity1795500000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE database_identity (
        singleton boolean NOT NULL DEFAULT true,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_database_identity PRIMARY KEY (singleton),
        CONSTRAINT ck_database_identity_singleton CHECK (singleton)
      )
    `);
    await queryRunner.query(`INSERT INTO database_identity DEFAULT VALUES`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE database_identity`);
  }
}
