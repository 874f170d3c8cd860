import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A settlement whose outcome is not known (the facilitator's answer was lost, timed out, or did
 * not prove that nothing moved, and the chain could not settle the question yet) is recorded with
 * `settle_unknown_since`; one whose authorization can never execute any more (expired or used
 * otherwise on chain, with no transfer of ours) with `settle_failed_at`. The partial index serves
 * the reconciler, which looks only at scored authorizations that may still settle.
 */
export class SettlementOutcome1795420000000 implements MigrationInterface {
  name = 'SettlementOutcome1795420000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE payment_authorizations ADD COLUMN settle_unknown_since timestamptz NULL`);
    await queryRunner.query(`ALTER TABLE payment_authorizations ADD COLUMN settle_failed_at timestamptz NULL`);
    await queryRunner.query(
      `ALTER TABLE payment_authorizations ADD CONSTRAINT ck_payment_authorizations_settle_failed CHECK (settle_failed_at IS NULL OR status = 'scored')`,
    );
    await queryRunner.query(
      `CREATE INDEX ix_payment_authorizations_unsettled ON payment_authorizations (updated_at) WHERE status = 'scored' AND settle_failed_at IS NULL`,
    );
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_payment_authorizations_unsettled`);
    await queryRunner.query(`ALTER TABLE payment_authorizations DROP CONSTRAINT ck_payment_authorizations_settle_failed`);
    await queryRunner.query(`ALTER TABLE payment_authorizations DROP COLUMN settle_failed_at`);
    await queryRunner.query(`ALTER TABLE payment_authorizations DROP COLUMN settle_unknown_since`);
  }
}
