import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Prepaid bundles and referrals: bundles of basic credits (bought, or earned as referral
 * rewards) whose bearer token is stored only as a SHA-256 hash, the redemptions of their credits
 * (with the stored result for Idempotency-Key replays), and one referral per referred wallet with
 * the spend that earns its referrer credits.
 */
export class CreateBundlesReferrals1795322400000 implements MigrationInterface {
  name = 'CreateBundlesReferrals1795322400000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE bundles (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        token_hash text NULL,
        wallet text NOT NULL,
        plan text NOT NULL,
        source text NOT NULL,
        credits_total integer NOT NULL,
        credits_remaining integer NOT NULL,
        authorization_id uuid NOT NULL,
        token_issued_at timestamptz NULL,
        last_recovery_signed_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_bundles PRIMARY KEY (id),
        CONSTRAINT uq_bundles_token_hash UNIQUE (token_hash),
        CONSTRAINT uq_bundles_authorization_source UNIQUE (authorization_id, source),
        CONSTRAINT fk_bundles_authorization_id FOREIGN KEY (authorization_id)
          REFERENCES payment_authorizations (id) ON DELETE CASCADE,
        CONSTRAINT ck_bundles_plan CHECK (plan IN ('bundle', 'fleet', 'referral-reward')),
        CONSTRAINT ck_bundles_source CHECK (source IN ('purchase', 'referral-reward')),
        CONSTRAINT ck_bundles_source_plan CHECK ((source = 'referral-reward') = (plan = 'referral-reward')),
        CONSTRAINT ck_bundles_token_hash CHECK (token_hash ~ '^[0-9a-f]{64}$'),
        CONSTRAINT ck_bundles_credits_total CHECK (credits_total > 0),
        CONSTRAINT ck_bundles_credits_remaining CHECK (credits_remaining >= 0 AND credits_remaining <= credits_total)
      )`);
    await queryRunner.query(`CREATE INDEX ix_bundles_wallet ON bundles (wallet)`);
    await queryRunner.query(`
      CREATE TABLE bundle_redemptions (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        bundle_id uuid NOT NULL,
        key_hash text NULL,
        request_hash text NOT NULL,
        result_id uuid NOT NULL,
        status text NOT NULL DEFAULT 'reserved',
        response jsonb NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz NULL,
        CONSTRAINT pk_bundle_redemptions PRIMARY KEY (id),
        CONSTRAINT uq_bundle_redemptions_key UNIQUE (bundle_id, key_hash),
        CONSTRAINT uq_bundle_redemptions_result_id UNIQUE (result_id),
        CONSTRAINT fk_bundle_redemptions_bundle_id FOREIGN KEY (bundle_id)
          REFERENCES bundles (id) ON DELETE CASCADE,
        CONSTRAINT ck_bundle_redemptions_status CHECK (status IN ('reserved', 'completed')),
        CONSTRAINT ck_bundle_redemptions_request_hash CHECK (request_hash ~ '^[0-9a-f]{64}$'),
        CONSTRAINT ck_bundle_redemptions_completed CHECK ((status = 'completed') = (response IS NOT NULL AND completed_at IS NOT NULL))
      )`);
    await queryRunner.query(`
      CREATE TABLE referrals (
        referred_wallet text NOT NULL,
        referrer_wallet text NOT NULL,
        authorization_id uuid NOT NULL,
        spent_usdc_units numeric(78,0) NOT NULL DEFAULT 0,
        spent_lamports numeric(78,0) NOT NULL DEFAULT 0,
        qualifying_purchases integer NOT NULL DEFAULT 0,
        credits_earned integer NOT NULL DEFAULT 0,
        credits_delivered integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_referrals PRIMARY KEY (referred_wallet),
        CONSTRAINT uq_referrals_authorization_id UNIQUE (authorization_id),
        CONSTRAINT fk_referrals_authorization_id FOREIGN KEY (authorization_id)
          REFERENCES payment_authorizations (id) ON DELETE RESTRICT,
        CONSTRAINT fk_referrals_referrer_wallet FOREIGN KEY (referrer_wallet)
          REFERENCES referral_codes (wallet) ON DELETE RESTRICT,
        CONSTRAINT ck_referrals_not_self CHECK (referred_wallet <> referrer_wallet),
        CONSTRAINT ck_referrals_spent CHECK (spent_usdc_units >= 0 AND spent_lamports >= 0),
        CONSTRAINT ck_referrals_credits CHECK (credits_delivered >= 0 AND credits_delivered <= credits_earned)
      )`);
    await queryRunner.query(`CREATE INDEX ix_referrals_referrer_wallet ON referrals (referrer_wallet)`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_referrals_referrer_wallet`);
    await queryRunner.query(`DROP TABLE referrals`);
    await queryRunner.query(`DROP TABLE bundle_redemptions`);
    await queryRunner.query(`DROP INDEX ix_bundles_wallet`);
    await queryRunner.query(`DROP TABLE bundles`);
  }
}
