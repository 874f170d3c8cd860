import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outcome reports of the company program: a company's figures for one metric over one period
 * (before and after guidance, with the conversation counts behind each rate; one report per company,
 * metric and period), and a bundle holder's scores of one conversation before and after applying the
 * advice. Numbers only: no conversation text has a column here.
 */
export class CreateAeiOutcomes1796000000001 implements MigrationInterface {
  name = 'CreateAeiOutcomes1796000000001';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE aei_company_outcomes (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL,
        metric text NOT NULL,
        period_start date NOT NULL,
        period_end date NOT NULL,
        before_rate double precision NOT NULL,
        before_conversations integer NOT NULL,
        after_rate double precision NOT NULL,
        after_conversations integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_aei_company_outcomes PRIMARY KEY (id),
        CONSTRAINT uq_aei_company_outcomes_period UNIQUE (company_id, metric, period_start, period_end),
        CONSTRAINT fk_aei_company_outcomes_company_id FOREIGN KEY (company_id) REFERENCES aei_companies (id) ON DELETE CASCADE,
        CONSTRAINT ck_aei_company_outcomes_period CHECK (period_start <= period_end),
        CONSTRAINT ck_aei_company_outcomes_rates CHECK (before_rate BETWEEN 0 AND 1 AND after_rate BETWEEN 0 AND 1),
        CONSTRAINT ck_aei_company_outcomes_counts CHECK (before_conversations > 0 AND after_conversations > 0)
      )`);
    await queryRunner.query(`
      CREATE TABLE aei_bundle_outcomes (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        bundle_id uuid NOT NULL,
        profile text NOT NULL,
        advice_applied boolean NOT NULL,
        eq_score_before double precision NOT NULL,
        eq_score_after double precision NOT NULL,
        resolved boolean NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_aei_bundle_outcomes PRIMARY KEY (id),
        CONSTRAINT fk_aei_bundle_outcomes_bundle_id FOREIGN KEY (bundle_id) REFERENCES bundles (id) ON DELETE CASCADE,
        CONSTRAINT ck_aei_bundle_outcomes_scores CHECK (eq_score_before BETWEEN 0 AND 100 AND eq_score_after BETWEEN 0 AND 100)
      )`);
    await queryRunner.query(`CREATE INDEX ix_aei_bundle_outcomes_bundle_id ON aei_bundle_outcomes (bundle_id)`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_aei_bundle_outcomes_bundle_id`);
    await queryRunner.query(`DROP TABLE aei_bundle_outcomes`);
    await queryRunner.query(`DROP TABLE aei_company_outcomes`);
  }
}
