import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Proof-card evidence: counters kept as the payment pipeline's events happen.
 * - `proof_card_counters`: one row per product, UTC day and counter, bumped with an atomic upsert
 *   (`n = n + 1`), so any number of web processes count correctly and the metrics window is a sum
 *   over days; the table stays small (products x counters x days).
 * - `proof_card_deliveries`: one row per delivered paid result (keyed by the authorization or the
 *   bundle redemption), so a replay is never a second delivery; it holds the request latency of
 *   the delivery for the p50/p95, and nothing that names the payer. A canary delivery is kept
 *   too (flagged), so a later replay of it is not counted as a real first delivery.
 * - `proof_card_buyers`: paid calls per product and keyed hash of the paying wallet, to tell a
 *   second paid call and a repeat buyer; never published.
 * - `proof_card_snapshots`: the evidence the refresh job built last, which the cards serve.
 */
export class CreateProofCardEvidence1795700000000 implements MigrationInterface {
  name = 'CreateProofCardEvidence1795700000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE proof_card_counters (
        product text NOT NULL,
        day date NOT NULL,
        counter text NOT NULL,
        n bigint NOT NULL DEFAULT 0,
        CONSTRAINT pk_proof_card_counters PRIMARY KEY (product, day, counter),
        CONSTRAINT ck_proof_card_counters_n CHECK (n >= 0)
      )`);
    await queryRunner.query(`
      CREATE TABLE proof_card_deliveries (
        delivery_key text NOT NULL,
        product text NOT NULL,
        delivered_at timestamptz NOT NULL DEFAULT now(),
        latency_ms integer NULL,
        canary boolean NOT NULL DEFAULT false,
        CONSTRAINT pk_proof_card_deliveries PRIMARY KEY (delivery_key),
        CONSTRAINT ck_proof_card_deliveries_latency_ms CHECK (latency_ms IS NULL OR latency_ms >= 0)
      )`);
    await queryRunner.query(`CREATE INDEX ix_proof_card_deliveries_product_delivered_at ON proof_card_deliveries (product, delivered_at)`);
    await queryRunner.query(`
      CREATE TABLE proof_card_buyers (
        product text NOT NULL,
        buyer_hash text NOT NULL,
        paid_calls integer NOT NULL,
        first_paid_at timestamptz NOT NULL DEFAULT now(),
        last_paid_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_proof_card_buyers PRIMARY KEY (product, buyer_hash),
        CONSTRAINT ck_proof_card_buyers_buyer_hash CHECK (buyer_hash ~ '^[0-9a-f]{64}$'),
        CONSTRAINT ck_proof_card_buyers_paid_calls CHECK (paid_calls > 0)
      )`);
    await queryRunner.query(`
      CREATE TABLE proof_card_snapshots (
        singleton boolean NOT NULL DEFAULT true,
        generated_at timestamptz NOT NULL,
        body jsonb NOT NULL,
        CONSTRAINT pk_proof_card_snapshots PRIMARY KEY (singleton),
        CONSTRAINT ck_proof_card_snapshots_singleton CHECK (singleton)
      )`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE proof_card_snapshots`);
    await queryRunner.query(`DROP TABLE proof_card_buyers`);
    await queryRunner.query(`DROP INDEX ix_proof_card_deliveries_product_delivered_at`);
    await queryRunner.query(`DROP TABLE proof_card_deliveries`);
    await queryRunner.query(`DROP TABLE proof_card_counters`);
  }
}
