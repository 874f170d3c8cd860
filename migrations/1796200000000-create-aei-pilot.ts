import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The pilot: volunteers hold short conversations with sponsors' agents and rate the agents' turns.
 * A participant row keeps only the SHA-256 of its token, the consent versions and times, and its
 * preferences; every row of a participant (invitations, turns, feedback, and the wording-review
 * items made of its replies) hangs off it with ON DELETE CASCADE, so deleting the participant
 * deletes all of it in one statement. What remains of an erasure is one counter with no identifier.
 * A sponsor's agent key is stored sealed (AES-256-GCM under a configured secret), never in clear.
 * At most one invitation per participant is open (offered or started), enforced by a partial
 * unique index so two offering jobs never both offer.
 */
export class CreateAeiPilot1796200000000 implements MigrationInterface {
  name = 'CreateAeiPilot1796200000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE pilot_sponsors (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        name text NOT NULL,
        domains text[] NOT NULL DEFAULT '{}',
        state text NOT NULL DEFAULT 'active',
        topic text NOT NULL,
        participant_brief text NOT NULL,
        agent_instructions text NOT NULL DEFAULT '',
        quota_conversations integer NOT NULL DEFAULT 0,
        agent_base_url text NULL,
        agent_model text NULL,
        agent_key_sealed text NULL,
        agent_calls integer NOT NULL DEFAULT 0,
        agent_failures integer NOT NULL DEFAULT 0,
        last_agent_failure text NULL,
        last_agent_failure_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_pilot_sponsors PRIMARY KEY (id),
        CONSTRAINT uq_pilot_sponsors_name UNIQUE (name),
        CONSTRAINT ck_pilot_sponsors_state CHECK (state IN ('active', 'paused')),
        CONSTRAINT ck_pilot_sponsors_quota CHECK (quota_conversations >= 0),
        CONSTRAINT ck_pilot_sponsors_agent CHECK (num_nonnulls(agent_base_url, agent_model, agent_key_sealed) IN (0, 3))
      )`);
    await queryRunner.query(`
      CREATE TABLE pilot_participants (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        token_hash text NOT NULL,
        state text NOT NULL DEFAULT 'active',
        consent_version text NOT NULL,
        consented_at timestamptz NOT NULL DEFAULT now(),
        model_consent_version text NULL,
        model_consent_at timestamptz NULL,
        topics text[] NOT NULL DEFAULT '{}',
        per_week smallint NOT NULL DEFAULT 2,
        days text[] NOT NULL DEFAULT '{mon,tue,wed,thu,fri,sat,sun}',
        hour_from smallint NOT NULL DEFAULT 0,
        hour_to smallint NOT NULL DEFAULT 24,
        preferences_at timestamptz NULL,
        paused_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_pilot_participants PRIMARY KEY (id),
        CONSTRAINT uq_pilot_participants_token_hash UNIQUE (token_hash),
        CONSTRAINT ck_pilot_participants_token_hash CHECK (token_hash ~ '^[0-9a-f]{64}$'),
        CONSTRAINT ck_pilot_participants_state CHECK (state IN ('active', 'paused')),
        CONSTRAINT ck_pilot_participants_model_consent CHECK ((model_consent_version IS NULL) = (model_consent_at IS NULL)),
        CONSTRAINT ck_pilot_participants_per_week CHECK (per_week BETWEEN 1 AND 14),
        CONSTRAINT ck_pilot_participants_hours CHECK (hour_from BETWEEN 0 AND 23 AND hour_to BETWEEN 1 AND 24 AND hour_from < hour_to)
      )`);
    await queryRunner.query(`
      CREATE TABLE pilot_invitations (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        participant_id uuid NOT NULL,
        sponsor_id uuid NOT NULL,
        state text NOT NULL DEFAULT 'offered',
        offered_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        started_at timestamptz NULL,
        ended_at timestamptz NULL,
        end_reason text NULL,
        CONSTRAINT pk_pilot_invitations PRIMARY KEY (id),
        CONSTRAINT fk_pilot_invitations_participant_id FOREIGN KEY (participant_id) REFERENCES pilot_participants (id) ON DELETE CASCADE,
        CONSTRAINT fk_pilot_invitations_sponsor_id FOREIGN KEY (sponsor_id) REFERENCES pilot_sponsors (id) ON DELETE CASCADE,
        CONSTRAINT ck_pilot_invitations_state CHECK (state IN ('offered', 'declined', 'started', 'stopped', 'expired')),
        CONSTRAINT ck_pilot_invitations_times CHECK (
          (state = 'offered' AND started_at IS NULL AND ended_at IS NULL)
          OR (state = 'started' AND started_at IS NOT NULL AND ended_at IS NULL)
          OR (state IN ('declined', 'expired') AND started_at IS NULL AND ended_at IS NOT NULL)
          OR (state = 'stopped' AND started_at IS NOT NULL AND ended_at IS NOT NULL)),
        CONSTRAINT ck_pilot_invitations_end_reason CHECK (end_reason IS NULL OR end_reason IN ('participant', 'turn_limit', 'idle', 'not_started', 'paused'))
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX uq_pilot_invitations_open ON pilot_invitations (participant_id) WHERE state IN ('offered', 'started')`);
    await queryRunner.query(`CREATE INDEX ix_pilot_invitations_sponsor_id ON pilot_invitations (sponsor_id)`);
    await queryRunner.query(`CREATE INDEX ix_pilot_invitations_offered_expiry ON pilot_invitations (expires_at) WHERE state = 'offered'`);
    await queryRunner.query(`
      CREATE TABLE pilot_turns (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        invitation_id uuid NOT NULL,
        participant_id uuid NOT NULL,
        seq smallint NOT NULL,
        role text NOT NULL,
        text text NOT NULL,
        delay_ms integer NULL,
        identity_flag boolean NOT NULL DEFAULT false,
        scorer_version text NULL,
        engine_human double precision NULL,
        engine_warm double precision NULL,
        engine_direct double precision NULL,
        engine_hesitant double precision NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_pilot_turns PRIMARY KEY (id),
        CONSTRAINT uq_pilot_turns_seq UNIQUE (invitation_id, seq),
        CONSTRAINT fk_pilot_turns_invitation_id FOREIGN KEY (invitation_id) REFERENCES pilot_invitations (id) ON DELETE CASCADE,
        CONSTRAINT fk_pilot_turns_participant_id FOREIGN KEY (participant_id) REFERENCES pilot_participants (id) ON DELETE CASCADE,
        CONSTRAINT ck_pilot_turns_role CHECK (role IN ('participant', 'agent')),
        CONSTRAINT ck_pilot_turns_delay CHECK ((role = 'participant') = (delay_ms IS NOT NULL) AND (delay_ms IS NULL OR delay_ms >= 0)),
        CONSTRAINT ck_pilot_turns_engine CHECK (
          role = 'participant' OR (scorer_version IS NOT NULL
            AND engine_human BETWEEN 0 AND 1 AND engine_warm BETWEEN 0 AND 1
            AND engine_direct BETWEEN 0 AND 1 AND engine_hesitant BETWEEN 0 AND 1))
      )`);
    await queryRunner.query(`CREATE INDEX ix_pilot_turns_participant_id ON pilot_turns (participant_id)`);
    await queryRunner.query(`
      CREATE TABLE pilot_feedback (
        turn_id uuid NOT NULL,
        participant_id uuid NOT NULL,
        invitation_id uuid NOT NULL,
        human smallint NOT NULL,
        warm smallint NOT NULL,
        direct smallint NOT NULL,
        hesitant smallint NOT NULL,
        comment text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_pilot_feedback PRIMARY KEY (turn_id),
        CONSTRAINT fk_pilot_feedback_turn_id FOREIGN KEY (turn_id) REFERENCES pilot_turns (id) ON DELETE CASCADE,
        CONSTRAINT fk_pilot_feedback_participant_id FOREIGN KEY (participant_id) REFERENCES pilot_participants (id) ON DELETE CASCADE,
        CONSTRAINT fk_pilot_feedback_invitation_id FOREIGN KEY (invitation_id) REFERENCES pilot_invitations (id) ON DELETE CASCADE,
        CONSTRAINT ck_pilot_feedback_scales CHECK (
          human BETWEEN 1 AND 5 AND warm BETWEEN 1 AND 5 AND direct BETWEEN 1 AND 5 AND hesitant BETWEEN 1 AND 5)
      )`);
    await queryRunner.query(`CREATE INDEX ix_pilot_feedback_participant_id ON pilot_feedback (participant_id)`);
    await queryRunner.query(`CREATE INDEX ix_pilot_feedback_invitation_id ON pilot_feedback (invitation_id)`);
    await queryRunner.query(`
      CREATE TABLE pilot_erasures (
        id smallint NOT NULL DEFAULT 1,
        erased integer NOT NULL DEFAULT 0,
        CONSTRAINT pk_pilot_erasures PRIMARY KEY (id),
        CONSTRAINT ck_pilot_erasures_single CHECK (id = 1),
        CONSTRAINT ck_pilot_erasures_erased CHECK (erased >= 0)
      )`);
    // A participant's reply with model consent becomes a wording-review item, and goes with the reply.
    await queryRunner.query(`ALTER TABLE wording_review_items ADD COLUMN pilot_turn_id uuid NULL`);
    await queryRunner.query(`ALTER TABLE wording_review_items ADD CONSTRAINT uq_wording_review_items_pilot_turn_id UNIQUE (pilot_turn_id)`);
    await queryRunner.query(
      `ALTER TABLE wording_review_items ADD CONSTRAINT fk_wording_review_items_pilot_turn_id FOREIGN KEY (pilot_turn_id) REFERENCES pilot_turns (id) ON DELETE CASCADE`,
    );
    await queryRunner.query(`ALTER TABLE wording_review_items DROP CONSTRAINT ck_wording_review_items_one_source`);
    await queryRunner.query(
      `ALTER TABLE wording_review_items ADD CONSTRAINT ck_wording_review_items_one_source
         CHECK (num_nonnulls(free_corpus_entry_id, calibration_share_id, pilot_turn_id, attention_check) = 1)`,
    );
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM wording_review_items WHERE pilot_turn_id IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE wording_review_items DROP CONSTRAINT ck_wording_review_items_one_source`);
    await queryRunner.query(
      `ALTER TABLE wording_review_items ADD CONSTRAINT ck_wording_review_items_one_source
         CHECK (num_nonnulls(free_corpus_entry_id, calibration_share_id, attention_check) = 1)`,
    );
    await queryRunner.query(`ALTER TABLE wording_review_items DROP CONSTRAINT fk_wording_review_items_pilot_turn_id`);
    await queryRunner.query(`ALTER TABLE wording_review_items DROP CONSTRAINT uq_wording_review_items_pilot_turn_id`);
    await queryRunner.query(`ALTER TABLE wording_review_items DROP COLUMN pilot_turn_id`);
    await queryRunner.query(`DROP TABLE pilot_erasures`);
    await queryRunner.query(`DROP TABLE pilot_feedback`);
    await queryRunner.query(`DROP TABLE pilot_turns`);
    await queryRunner.query(`DROP TABLE pilot_invitations`);
    await queryRunner.query(`DROP TABLE pilot_participants`);
    await queryRunner.query(`DROP TABLE pilot_sponsors`);
  }
}
