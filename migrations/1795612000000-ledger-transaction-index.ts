import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A public certificate is looked up by its settlement transaction (GET /api/certificate/{tx_hash}):
 * a free, unauthenticated read keyed by a caller's value must not scan the ledger.
 */
export class LedgerTransactionIndex1795612000000 implements MigrationInterface {
  name = 'LedgerTransactionIndex1795612000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX ix_ledger_sessions_transaction ON ledger_sessions (transaction)`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_ledger_sessions_transaction`);
  }
}
