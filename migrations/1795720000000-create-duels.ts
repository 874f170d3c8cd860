import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Duels: one row per duel, holding both legs. Each leg is also a ledger session of its
 * own payment; the row keeps what the duel needs to compare them (EQ score, per-dimension fit)
 * and the answers only of bots that opted in to sharing (cleared unless both did). Open duels
 * are swept to `expired` by the maintenance queue; a join is one conditional UPDATE, so the
 * database decides a join that races the expiry.
 */
export class CreateDuels1795720000000 implements MigrationInterface {
  name = 'CreateDuels1795720000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE duels (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        status text NOT NULL DEFAULT 'open',
        prompt_id integer NOT NULL,
        target_profile text NOT NULL,
        challenger_payer text NOT NULL,
        challenger_authorization_id uuid NOT NULL,
        challenger_result_id uuid NOT NULL,
        challenger_eq_score double precision NOT NULL,
        challenger_passed boolean NOT NULL,
        challenger_dimensions jsonb NOT NULL,
        challenger_share boolean NOT NULL,
        challenger_text text NULL,
        opponent_payer text NULL,
        opponent_authorization_id uuid NULL,
        opponent_result_id uuid NULL,
        opponent_eq_score double precision NULL,
        opponent_passed boolean NULL,
        opponent_dimensions jsonb NULL,
        opponent_share boolean NULL,
        opponent_text text NULL,
        outcome text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        resolved_at timestamptz NULL,
        expired_at timestamptz NULL,
        CONSTRAINT pk_duels PRIMARY KEY (id),
        CONSTRAINT uq_duels_challenger_authorization UNIQUE (challenger_authorization_id),
        CONSTRAINT uq_duels_opponent_authorization UNIQUE (opponent_authorization_id),
        CONSTRAINT fk_duels_challenger_authorization FOREIGN KEY (challenger_authorization_id) REFERENCES payment_authorizations (id),
        CONSTRAINT fk_duels_opponent_authorization FOREIGN KEY (opponent_authorization_id) REFERENCES payment_authorizations (id),
        CONSTRAINT ck_duels_status CHECK (status IN ('open', 'resolved', 'expired')),
        CONSTRAINT ck_duels_outcome CHECK (outcome IS NULL OR outcome IN ('challenger', 'opponent', 'draw')),
        CONSTRAINT ck_duels_resolved CHECK ((status = 'resolved') = (outcome IS NOT NULL AND opponent_payer IS NOT NULL)),
        CONSTRAINT ck_duels_not_self CHECK (opponent_payer IS NULL OR opponent_payer <> challenger_payer)
      )`);
    // The open list and the expiry sweep read only open duels, by expiry.
    await queryRunner.query(`CREATE INDEX ix_duels_open_expires_at ON duels (expires_at) WHERE status = 'open'`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE duels`);
  }
}
