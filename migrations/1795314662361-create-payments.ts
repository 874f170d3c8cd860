import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Paid calls: payment authorizations (reserved before any work, unique per network, asset, payer
 * and nonce, holding the stored response for replays), the ledger of settled sessions,
 * Idempotency-Key records, each wallet's referral code and calibration shares.
 */
export class CreatePayments1795314662361 implements MigrationInterface {
  name = 'CreatePayments1795314662361';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE payment_authorizations (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        rail text NOT NULL,
        network text NOT NULL,
        asset text NOT NULL,
        payer text NOT NULL,
        nonce text NOT NULL,
        x402_version smallint NOT NULL,
        resource text NOT NULL,
        product text NOT NULL,
        tier text NULL,
        amount numeric(78,0) NOT NULL,
        request_hash text NOT NULL,
        result_id uuid NOT NULL,
        status text NOT NULL DEFAULT 'reserved',
        payment jsonb NOT NULL,
        response jsonb NULL,
        summary jsonb NULL,
        calibration_text text NULL,
        settle_attempts integer NOT NULL DEFAULT 0,
        last_error text NULL,
        transaction text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        settled_at timestamptz NULL,
        CONSTRAINT pk_payment_authorizations PRIMARY KEY (id),
        CONSTRAINT uq_payment_authorizations_nonce UNIQUE (network, asset, payer, nonce),
        CONSTRAINT uq_payment_authorizations_result_id UNIQUE (result_id),
        CONSTRAINT ck_payment_authorizations_rail CHECK (rail IN ('exact-evm', 'sol-transfer')),
        CONSTRAINT ck_payment_authorizations_status CHECK (status IN ('reserved', 'scored', 'settled')),
        CONSTRAINT ck_payment_authorizations_request_hash CHECK (request_hash ~ '^[0-9a-f]{64}$'),
        CONSTRAINT ck_payment_authorizations_amount CHECK (amount > 0),
        CONSTRAINT ck_payment_authorizations_settled CHECK ((status = 'settled') = (transaction IS NOT NULL AND settled_at IS NOT NULL))
      )`);
    await queryRunner.query(`
      CREATE TABLE ledger_sessions (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        authorization_id uuid NOT NULL,
        product text NOT NULL,
        tier text NULL,
        profile text NULL,
        score double precision NULL,
        passed boolean NULL,
        result_id uuid NOT NULL,
        network text NOT NULL,
        asset text NOT NULL,
        amount numeric(78,0) NOT NULL,
        transaction text NOT NULL,
        payer text NOT NULL,
        request_hash text NOT NULL,
        created_at timestamptz NOT NULL,
        settled_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_ledger_sessions PRIMARY KEY (id),
        CONSTRAINT uq_ledger_sessions_authorization_id UNIQUE (authorization_id),
        CONSTRAINT uq_ledger_sessions_result_id UNIQUE (result_id),
        CONSTRAINT fk_ledger_sessions_authorization_id FOREIGN KEY (authorization_id)
          REFERENCES payment_authorizations (id) ON DELETE RESTRICT
      )`);
    await queryRunner.query(`CREATE INDEX ix_ledger_sessions_payer ON ledger_sessions (payer)`);
    await queryRunner.query(`CREATE INDEX ix_ledger_sessions_settled_at ON ledger_sessions (settled_at)`);
    await queryRunner.query(`
      CREATE TABLE idempotency_records (
        key_hash text NOT NULL,
        request_hash text NOT NULL,
        authorization_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_idempotency_records PRIMARY KEY (key_hash),
        CONSTRAINT fk_idempotency_records_authorization_id FOREIGN KEY (authorization_id)
          REFERENCES payment_authorizations (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`
      CREATE TABLE referral_codes (
        wallet text NOT NULL,
        code text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_referral_codes PRIMARY KEY (wallet),
        CONSTRAINT uq_referral_codes_code UNIQUE (code)
      )`);
    await queryRunner.query(`
      CREATE TABLE calibration_shares (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        result_id uuid NOT NULL,
        profile text NOT NULL,
        eq_score double precision NOT NULL,
        text text NOT NULL,
        scorer_version text NOT NULL,
        reviewed boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_calibration_shares PRIMARY KEY (id),
        CONSTRAINT uq_calibration_shares_result_id UNIQUE (result_id),
        CONSTRAINT ck_calibration_shares_eq_score CHECK (eq_score > 85)
      )`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE calibration_shares`);
    await queryRunner.query(`DROP TABLE referral_codes`);
    await queryRunner.query(`DROP TABLE idempotency_records`);
    await queryRunner.query(`DROP INDEX ix_ledger_sessions_settled_at`);
    await queryRunner.query(`DROP INDEX ix_ledger_sessions_payer`);
    await queryRunner.query(`DROP TABLE ledger_sessions`);
    await queryRunner.query(`DROP TABLE payment_authorizations`);
  }
}
