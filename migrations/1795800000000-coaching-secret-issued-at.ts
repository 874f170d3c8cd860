import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When an enrollment's drill secret was last issued. A payer's claim reissues the secret at most
 * once per short window, so concurrent retries of one claim give one working secret, not several
 * of which all but the last are dead on arrival.
 */
export class CoachingSecretIssuedAt1795800000000 implements MigrationInterface {
  name = 'CoachingSecretIssuedAt1795800000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE coaching_enrollments ADD COLUMN secret_issued_at timestamptz NULL`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE coaching_enrollments DROP COLUMN secret_issued_at`);
  }
}
