import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operators: operator and admin credentials, stored only as the SHA-256 of the bearer
 * token, with an expiry and a revocation time; the runtime network configuration (one row, absent
 * until the first change: the catalog's defaults apply) and the audit of every change to it.
 */
export class CreateOperators1795600000000 implements MigrationInterface {
  name = 'CreateOperators1795600000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE operator_credentials (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        role text NOT NULL,
        token_hash text NOT NULL,
        label text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz NULL,
        CONSTRAINT pk_operator_credentials PRIMARY KEY (id),
        CONSTRAINT uq_operator_credentials_token_hash UNIQUE (token_hash),
        CONSTRAINT ck_operator_credentials_role CHECK (role IN ('operator', 'admin')),
        CONSTRAINT ck_operator_credentials_token_hash CHECK (token_hash ~ '^[0-9a-f]{64}$'),
        CONSTRAINT ck_operator_credentials_expiry CHECK (expires_at > created_at)
      )`);
    await queryRunner.query(`
      CREATE TABLE network_config (
        singleton boolean NOT NULL DEFAULT true,
        simulate_base_lamports integer NOT NULL,
        failure_suspension_cap integer NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        updated_by uuid NULL,
        CONSTRAINT pk_network_config PRIMARY KEY (singleton),
        CONSTRAINT ck_network_config_singleton CHECK (singleton),
        CONSTRAINT ck_network_config_simulate_base_lamports CHECK (simulate_base_lamports > 0),
        CONSTRAINT ck_network_config_failure_suspension_cap CHECK (failure_suspension_cap > 0),
        CONSTRAINT fk_network_config_updated_by FOREIGN KEY (updated_by)
          REFERENCES operator_credentials (id) ON DELETE RESTRICT
      )`);
    await queryRunner.query(`
      CREATE TABLE network_config_changes (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        credential_id uuid NOT NULL,
        changed_at timestamptz NOT NULL DEFAULT now(),
        old_values jsonb NOT NULL,
        new_values jsonb NOT NULL,
        CONSTRAINT pk_network_config_changes PRIMARY KEY (id),
        CONSTRAINT fk_network_config_changes_credential_id FOREIGN KEY (credential_id)
          REFERENCES operator_credentials (id) ON DELETE RESTRICT
      )`);
    await queryRunner.query(`CREATE INDEX ix_network_config_changes_changed_at ON network_config_changes (changed_at)`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_network_config_changes_changed_at`);
    await queryRunner.query(`DROP TABLE network_config_changes`);
    await queryRunner.query(`DROP TABLE network_config`);
    await queryRunner.query(`DROP TABLE operator_credentials`);
  }
}
