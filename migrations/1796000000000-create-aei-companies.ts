import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Companies in the program. A company is bought with a card checkout: its purchase and its card
 * bundle (which holds the embedded-check credits) are the card packs' own rows, granted exactly once
 * by the card webhook. The company row holds the program token's hash, the accepted terms (version
 * and content hash), the period that the claim starts, and the guide calls used in it. It is
 * inactive until the purchase is paid and the company claims it.
 */
export class CreateAeiCompanies1796000000000 implements MigrationInterface {
  name = 'CreateAeiCompanies1796000000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE aei_companies (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        token_hash text NOT NULL,
        bundle_id uuid NOT NULL,
        purchase_id uuid NOT NULL,
        plan text NOT NULL,
        guide_calls_total integer NOT NULL,
        guide_calls_used integer NOT NULL DEFAULT 0,
        sponsorship_slots integer NOT NULL,
        period_days integer NOT NULL,
        terms_version text NULL,
        terms_hash text NULL,
        activated_at timestamptz NULL,
        period_ends_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_aei_companies PRIMARY KEY (id),
        CONSTRAINT uq_aei_companies_token_hash UNIQUE (token_hash),
        CONSTRAINT uq_aei_companies_purchase_id UNIQUE (purchase_id),
        CONSTRAINT fk_aei_companies_bundle_id FOREIGN KEY (bundle_id) REFERENCES bundles (id) ON DELETE CASCADE,
        CONSTRAINT fk_aei_companies_purchase_id FOREIGN KEY (purchase_id) REFERENCES card_purchases (id) ON DELETE CASCADE,
        CONSTRAINT ck_aei_companies_token_hash CHECK (token_hash ~ '^[0-9a-f]{64}$'),
        CONSTRAINT ck_aei_companies_guide_calls CHECK (guide_calls_used >= 0 AND guide_calls_used <= guide_calls_total),
        CONSTRAINT ck_aei_companies_allowances CHECK (guide_calls_total > 0 AND sponsorship_slots >= 0 AND period_days > 0),
        CONSTRAINT ck_aei_companies_activation CHECK (
          (activated_at IS NULL AND period_ends_at IS NULL AND terms_version IS NULL AND terms_hash IS NULL)
          OR (activated_at IS NOT NULL AND period_ends_at > activated_at AND terms_version IS NOT NULL AND terms_hash ~ '^[0-9a-f]{64}$')
        )
      )`);
    await queryRunner.query(`CREATE INDEX ix_aei_companies_bundle_id ON aei_companies (bundle_id)`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_aei_companies_bundle_id`);
    await queryRunner.query(`DROP TABLE aei_companies`);
  }
}
