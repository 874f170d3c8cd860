import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Role-play rooms and their turns. A room is paid for by its opener; each participant's
 * `session_secret` is stored only as a SHA-256 hash, and the two hashes can never be equal. A join
 * and the 48-hour expiry both flip `state` with one conditional UPDATE, so the database decides a
 * race between them. A turn is recorded once per (room, turn number).
 */
export class CreateRoleplayRooms1795730000000 implements MigrationInterface {
  name = 'CreateRoleplayRooms1795730000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE roleplay_rooms (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        authorization_id uuid NOT NULL,
        opener_wallet text NOT NULL,
        profile text NOT NULL,
        open_to_any_partner boolean NOT NULL DEFAULT false,
        state text NOT NULL DEFAULT 'pending',
        opener_secret_hash text NULL,
        joiner_secret_hash text NULL,
        turns_taken integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        opened_at timestamptz NULL,
        expires_at timestamptz NULL,
        joined_at timestamptz NULL,
        completed_at timestamptz NULL,
        expired_at timestamptz NULL,
        CONSTRAINT pk_roleplay_rooms PRIMARY KEY (id),
        CONSTRAINT uq_roleplay_rooms_authorization_id UNIQUE (authorization_id),
        CONSTRAINT uq_roleplay_rooms_opener_secret_hash UNIQUE (opener_secret_hash),
        CONSTRAINT uq_roleplay_rooms_joiner_secret_hash UNIQUE (joiner_secret_hash),
        CONSTRAINT fk_roleplay_rooms_authorization_id FOREIGN KEY (authorization_id)
          REFERENCES payment_authorizations (id) ON DELETE CASCADE,
        CONSTRAINT ck_roleplay_rooms_state CHECK (state IN ('pending', 'open', 'joined', 'completed', 'expired')),
        CONSTRAINT ck_roleplay_rooms_opener_secret_hash CHECK (opener_secret_hash ~ '^[0-9a-f]{64}$'),
        CONSTRAINT ck_roleplay_rooms_joiner_secret_hash CHECK (joiner_secret_hash ~ '^[0-9a-f]{64}$'),
        CONSTRAINT ck_roleplay_rooms_secrets_distinct CHECK (joiner_secret_hash IS NULL OR joiner_secret_hash <> opener_secret_hash),
        CONSTRAINT ck_roleplay_rooms_turns_taken CHECK (turns_taken >= 0 AND turns_taken <= 8),
        CONSTRAINT ck_roleplay_rooms_opened CHECK ((state = 'pending') = (opener_secret_hash IS NULL AND opened_at IS NULL AND expires_at IS NULL)),
        CONSTRAINT ck_roleplay_rooms_joined CHECK ((state IN ('joined', 'completed')) = (joiner_secret_hash IS NOT NULL AND joined_at IS NOT NULL))
      )`);
    await queryRunner.query(`CREATE INDEX ix_roleplay_rooms_open ON roleplay_rooms (expires_at) WHERE state = 'open'`);
    await queryRunner.query(`
      CREATE TABLE roleplay_turns (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        room_id uuid NOT NULL,
        turn_no integer NOT NULL,
        chair text NOT NULL,
        role text NOT NULL,
        feeling text NULL,
        feeling_read text NULL,
        reading_correct boolean NULL,
        eq_score double precision NOT NULL,
        passed boolean NOT NULL,
        human_likeness double precision NOT NULL,
        turn_score double precision NOT NULL,
        scorer_version text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_roleplay_turns PRIMARY KEY (id),
        CONSTRAINT uq_roleplay_turns_room_turn UNIQUE (room_id, turn_no),
        CONSTRAINT fk_roleplay_turns_room_id FOREIGN KEY (room_id)
          REFERENCES roleplay_rooms (id) ON DELETE CASCADE,
        CONSTRAINT ck_roleplay_turns_turn_no CHECK (turn_no >= 1 AND turn_no <= 8),
        CONSTRAINT ck_roleplay_turns_chair CHECK (chair IN ('opener', 'joiner')),
        CONSTRAINT ck_roleplay_turns_role CHECK (role IN ('asker', 'helper')),
        CONSTRAINT ck_roleplay_turns_feeling CHECK ((role = 'asker') = (feeling IS NOT NULL)),
        CONSTRAINT ck_roleplay_turns_reading CHECK ((role = 'helper') = (reading_correct IS NOT NULL))
      )`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE roleplay_turns`);
    await queryRunner.query(`DROP TABLE roleplay_rooms`);
  }
}
