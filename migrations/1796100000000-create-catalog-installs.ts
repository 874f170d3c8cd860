import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The catalog's free install workflow and the plans agents buy for a verified install.
 * A workflow binds one site origin to one offering and one challenge (with its expiry); it moves
 * from `awaiting_challenge` through `challenge_verified` and `install_recorded` to `verified`, and a
 * re-verification that no longer finds the snippet or the challenge moves it to `revoked`.
 * A quote is one priced offer (a new plan, a renewal or an upgrade) for one install and one wallet;
 * it is bound to at most one payment authorization (unique), so it settles at most once. The grant
 * row is unique per quote, so the credits a quote buys are added exactly once, whichever request
 * (the payment's delivery or a retry of its activation) gets there first. The credits live on a
 * bundle of its own per install (`source = plan = 'catalog-plan'`), spent with its bundle token.
 */
export class CreateCatalogInstalls1796100000000 implements MigrationInterface {
  name = 'CreateCatalogInstalls1796100000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE bundles DROP CONSTRAINT ck_bundles_plan`);
    await queryRunner.query(`ALTER TABLE bundles ADD CONSTRAINT ck_bundles_plan CHECK (plan IN ('bundle', 'fleet', 'referral-reward', 'card', 'catalog-plan'))`);
    await queryRunner.query(`ALTER TABLE bundles DROP CONSTRAINT ck_bundles_source`);
    await queryRunner.query(`ALTER TABLE bundles ADD CONSTRAINT ck_bundles_source CHECK (source IN ('purchase', 'referral-reward', 'card', 'catalog-plan'))`);
    await queryRunner.query(`ALTER TABLE bundles ADD CONSTRAINT ck_bundles_catalog_plan CHECK ((source = 'catalog-plan') = (plan = 'catalog-plan'))`);

    await queryRunner.query(`
      CREATE TABLE catalog_install_workflows (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        offering_id text NOT NULL,
        site_origin text NOT NULL,
        challenge text NOT NULL,
        challenge_expires_at timestamptz NOT NULL,
        state text NOT NULL DEFAULT 'awaiting_challenge',
        page_url text NULL,
        challenge_verified_at timestamptz NULL,
        installed_at timestamptz NULL,
        verified_at timestamptz NULL,
        last_checked_at timestamptz NULL,
        revoked_at timestamptz NULL,
        revoked_reason text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_catalog_install_workflows PRIMARY KEY (id),
        CONSTRAINT uq_catalog_install_workflows_challenge UNIQUE (challenge),
        CONSTRAINT ck_catalog_install_workflows_state CHECK (state IN ('awaiting_challenge', 'challenge_verified', 'install_recorded', 'verified', 'revoked')),
        CONSTRAINT ck_catalog_install_workflows_page CHECK ((state IN ('awaiting_challenge', 'challenge_verified')) = (page_url IS NULL)),
        CONSTRAINT ck_catalog_install_workflows_revoked CHECK ((state = 'revoked') = (revoked_at IS NOT NULL))
      )`);
    await queryRunner.query(`CREATE INDEX ix_catalog_install_workflows_live ON catalog_install_workflows (last_checked_at) WHERE state = 'verified'`);

    await queryRunner.query(`
      CREATE TABLE catalog_install_plans (
        workflow_id uuid NOT NULL,
        plan_id text NOT NULL,
        bundle_id uuid NOT NULL,
        period_ends_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_catalog_install_plans PRIMARY KEY (workflow_id),
        CONSTRAINT uq_catalog_install_plans_bundle_id UNIQUE (bundle_id),
        CONSTRAINT fk_catalog_install_plans_workflow_id FOREIGN KEY (workflow_id) REFERENCES catalog_install_workflows (id) ON DELETE CASCADE,
        CONSTRAINT fk_catalog_install_plans_bundle_id FOREIGN KEY (bundle_id) REFERENCES bundles (id) ON DELETE CASCADE
      )`);

    await queryRunner.query(`
      CREATE TABLE catalog_agent_quotes (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        kind text NOT NULL,
        workflow_id uuid NOT NULL,
        plan_id text NOT NULL,
        from_plan_id text NULL,
        wallet text NOT NULL,
        amount_usdc_units bigint NOT NULL,
        amount_lamports bigint NOT NULL,
        credits integer NOT NULL,
        period_days integer NOT NULL,
        expires_at timestamptz NOT NULL,
        authorization_id uuid NULL,
        activation_status text NOT NULL DEFAULT 'none',
        activation_error text NULL,
        activated_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_catalog_agent_quotes PRIMARY KEY (id),
        CONSTRAINT uq_catalog_agent_quotes_authorization_id UNIQUE (authorization_id),
        CONSTRAINT fk_catalog_agent_quotes_workflow_id FOREIGN KEY (workflow_id) REFERENCES catalog_install_workflows (id) ON DELETE CASCADE,
        CONSTRAINT fk_catalog_agent_quotes_authorization_id FOREIGN KEY (authorization_id) REFERENCES payment_authorizations (id) ON DELETE CASCADE,
        CONSTRAINT ck_catalog_agent_quotes_kind CHECK (kind IN ('new', 'renewal', 'upgrade')),
        CONSTRAINT ck_catalog_agent_quotes_upgrade CHECK ((kind = 'upgrade') = (from_plan_id IS NOT NULL)),
        CONSTRAINT ck_catalog_agent_quotes_amount CHECK (amount_usdc_units > 0 AND amount_lamports > 0 AND credits > 0 AND period_days >= 0),
        CONSTRAINT ck_catalog_agent_quotes_activation CHECK (activation_status IN ('none', 'active', 'failed')),
        CONSTRAINT ck_catalog_agent_quotes_activated CHECK ((activation_status = 'active') = (activated_at IS NOT NULL))
      )`);
    await queryRunner.query(`CREATE INDEX ix_catalog_agent_quotes_workflow_id ON catalog_agent_quotes (workflow_id)`);

    await queryRunner.query(`
      CREATE TABLE catalog_plan_grants (
        quote_id uuid NOT NULL,
        bundle_id uuid NOT NULL,
        credits integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_catalog_plan_grants PRIMARY KEY (quote_id),
        CONSTRAINT fk_catalog_plan_grants_quote_id FOREIGN KEY (quote_id) REFERENCES catalog_agent_quotes (id) ON DELETE CASCADE,
        CONSTRAINT fk_catalog_plan_grants_bundle_id FOREIGN KEY (bundle_id) REFERENCES bundles (id) ON DELETE CASCADE,
        CONSTRAINT ck_catalog_plan_grants_credits CHECK (credits > 0)
      )`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE catalog_plan_grants`);
    await queryRunner.query(`DROP INDEX ix_catalog_agent_quotes_workflow_id`);
    await queryRunner.query(`DROP TABLE catalog_agent_quotes`);
    await queryRunner.query(`DROP TABLE catalog_install_plans`);
    await queryRunner.query(`DROP INDEX ix_catalog_install_workflows_live`);
    await queryRunner.query(`DROP TABLE catalog_install_workflows`);
    // Plan bundles cannot exist under the old constraints.
    await queryRunner.query(`DELETE FROM bundles WHERE source = 'catalog-plan'`);
    await queryRunner.query(`ALTER TABLE bundles DROP CONSTRAINT ck_bundles_catalog_plan`);
    await queryRunner.query(`ALTER TABLE bundles DROP CONSTRAINT ck_bundles_source`);
    await queryRunner.query(`ALTER TABLE bundles ADD CONSTRAINT ck_bundles_source CHECK (source IN ('purchase', 'referral-reward', 'card'))`);
    await queryRunner.query(`ALTER TABLE bundles DROP CONSTRAINT ck_bundles_plan`);
    await queryRunner.query(`ALTER TABLE bundles ADD CONSTRAINT ck_bundles_plan CHECK (plan IN ('bundle', 'fleet', 'referral-reward', 'card'))`);
  }
}
