import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every settled session keeps what the progress report and the training-dataset export read:
 * the persona targets in force when it was scored (frozen, so a later change of a
 * profile never rewrites history), the measured dimension values, and the reply's text only where
 * the wallet opted in (`store_text_for_training`). Rows settled before this migration have none.
 * The index serves both products, which read one wallet's sessions in settlement order.
 */
export class LedgerSessionTrainingFields1795611000000 implements MigrationInterface {
  name = 'LedgerSessionTrainingFields1795611000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE ledger_sessions ADD COLUMN persona_targets jsonb NULL`);
    await queryRunner.query(`ALTER TABLE ledger_sessions ADD COLUMN measured_dimensions jsonb NULL`);
    await queryRunner.query(`ALTER TABLE ledger_sessions ADD COLUMN training_text text NULL`);
    await queryRunner.query(
      `ALTER TABLE ledger_sessions ADD CONSTRAINT ck_ledger_sessions_persona_targets CHECK (persona_targets IS NULL OR jsonb_typeof(persona_targets) = 'object')`,
    );
    await queryRunner.query(
      `ALTER TABLE ledger_sessions ADD CONSTRAINT ck_ledger_sessions_measured_dimensions CHECK (measured_dimensions IS NULL OR jsonb_typeof(measured_dimensions) = 'object')`,
    );
    await queryRunner.query(`CREATE INDEX ix_ledger_sessions_payer_settled ON ledger_sessions (payer, settled_at, id)`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_ledger_sessions_payer_settled`);
    await queryRunner.query(`ALTER TABLE ledger_sessions DROP CONSTRAINT ck_ledger_sessions_measured_dimensions`);
    await queryRunner.query(`ALTER TABLE ledger_sessions DROP CONSTRAINT ck_ledger_sessions_persona_targets`);
    await queryRunner.query(`ALTER TABLE ledger_sessions DROP COLUMN training_text`);
    await queryRunner.query(`ALTER TABLE ledger_sessions DROP COLUMN measured_dimensions`);
    await queryRunner.query(`ALTER TABLE ledger_sessions DROP COLUMN persona_targets`);
  }
}
