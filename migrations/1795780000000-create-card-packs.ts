import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Card credit packs. A card-bought bundle (`source = 'card'`, `plan = 'card'`) has no owning wallet
 * and no x402 authorization: its bearer token alone spends it, and it starts at zero credits while
 * its first purchase is pending. Card purchases (one per checkout session), the grants (one per
 * processor object paid for: the checkout session or the renewal's payment intent, unique, so a
 * webhook delivered twice or a reconciler that finds it again grants nothing more), the events
 * received (stored before they are applied), and renewals with one charge row per period (unique,
 * so a period is attempted once and a failed one never again).
 */
export class CreateCardPacks1795780000000 implements MigrationInterface {
  name = 'CreateCardPacks1795780000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE bundles ALTER COLUMN wallet DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE bundles ALTER COLUMN authorization_id DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE bundles DROP CONSTRAINT ck_bundles_plan`);
    await queryRunner.query(`ALTER TABLE bundles ADD CONSTRAINT ck_bundles_plan CHECK (plan IN ('bundle', 'fleet', 'referral-reward', 'card'))`);
    await queryRunner.query(`ALTER TABLE bundles DROP CONSTRAINT ck_bundles_source`);
    await queryRunner.query(`ALTER TABLE bundles ADD CONSTRAINT ck_bundles_source CHECK (source IN ('purchase', 'referral-reward', 'card'))`);
    await queryRunner.query(`ALTER TABLE bundles ADD CONSTRAINT ck_bundles_card_plan CHECK ((source = 'card') = (plan = 'card'))`);
    await queryRunner.query(`ALTER TABLE bundles ADD CONSTRAINT ck_bundles_card_wallet CHECK ((source = 'card') = (wallet IS NULL))`);
    await queryRunner.query(`ALTER TABLE bundles ADD CONSTRAINT ck_bundles_card_authorization CHECK ((source = 'card') = (authorization_id IS NULL))`);
    await queryRunner.query(`ALTER TABLE bundles DROP CONSTRAINT ck_bundles_credits_total`);
    await queryRunner.query(`ALTER TABLE bundles ADD CONSTRAINT ck_bundles_credits_total CHECK (credits_total > 0 OR (source = 'card' AND credits_total >= 0))`);

    await queryRunner.query(`
      CREATE TABLE card_purchases (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        bundle_id uuid NOT NULL,
        pack text NOT NULL,
        amount_cents integer NOT NULL,
        currency text NOT NULL,
        credits integer NOT NULL,
        auto_refill boolean NOT NULL,
        checkout_session_id text NULL,
        status text NOT NULL DEFAULT 'pending',
        created_at timestamptz NOT NULL DEFAULT now(),
        settled_at timestamptz NULL,
        CONSTRAINT pk_card_purchases PRIMARY KEY (id),
        CONSTRAINT uq_card_purchases_checkout_session_id UNIQUE (checkout_session_id),
        CONSTRAINT fk_card_purchases_bundle_id FOREIGN KEY (bundle_id) REFERENCES bundles (id) ON DELETE CASCADE,
        CONSTRAINT ck_card_purchases_status CHECK (status IN ('pending', 'paid', 'failed')),
        CONSTRAINT ck_card_purchases_amount CHECK (amount_cents > 0 AND credits > 0),
        CONSTRAINT ck_card_purchases_settled CHECK ((status = 'pending') = (settled_at IS NULL))
      )`);
    await queryRunner.query(`CREATE INDEX ix_card_purchases_bundle_id ON card_purchases (bundle_id)`);

    await queryRunner.query(`
      CREATE TABLE card_renewals (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        bundle_id uuid NOT NULL,
        purchase_id uuid NOT NULL,
        pack text NOT NULL,
        amount_cents integer NOT NULL,
        currency text NOT NULL,
        credits integer NOT NULL,
        customer_id text NOT NULL,
        payment_method_id text NOT NULL,
        status text NOT NULL DEFAULT 'active',
        next_period integer NOT NULL DEFAULT 1,
        next_charge_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        cancelled_at timestamptz NULL,
        CONSTRAINT pk_card_renewals PRIMARY KEY (id),
        CONSTRAINT uq_card_renewals_purchase_id UNIQUE (purchase_id),
        CONSTRAINT fk_card_renewals_bundle_id FOREIGN KEY (bundle_id) REFERENCES bundles (id) ON DELETE CASCADE,
        CONSTRAINT fk_card_renewals_purchase_id FOREIGN KEY (purchase_id) REFERENCES card_purchases (id) ON DELETE CASCADE,
        CONSTRAINT ck_card_renewals_status CHECK (status IN ('active', 'cancelled')),
        CONSTRAINT ck_card_renewals_cancelled CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL)),
        CONSTRAINT ck_card_renewals_next_period CHECK (next_period >= 1)
      )`);
    await queryRunner.query(`CREATE INDEX ix_card_renewals_bundle_id ON card_renewals (bundle_id)`);
    await queryRunner.query(`CREATE INDEX ix_card_renewals_due ON card_renewals (next_charge_at) WHERE status = 'active'`);

    await queryRunner.query(`
      CREATE TABLE card_renewal_charges (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        renewal_id uuid NOT NULL,
        period integer NOT NULL,
        idempotency_key text NOT NULL,
        payment_intent_id text NULL,
        status text NOT NULL DEFAULT 'attempting',
        failure_code text NULL,
        attempted_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz NULL,
        CONSTRAINT pk_card_renewal_charges PRIMARY KEY (id),
        CONSTRAINT uq_card_renewal_charges_period UNIQUE (renewal_id, period),
        CONSTRAINT uq_card_renewal_charges_idempotency_key UNIQUE (idempotency_key),
        CONSTRAINT fk_card_renewal_charges_renewal_id FOREIGN KEY (renewal_id) REFERENCES card_renewals (id) ON DELETE CASCADE,
        CONSTRAINT ck_card_renewal_charges_status CHECK (status IN ('attempting', 'succeeded', 'failed')),
        CONSTRAINT ck_card_renewal_charges_finished CHECK ((status = 'attempting') = (finished_at IS NULL))
      )`);

    await queryRunner.query(`
      CREATE TABLE card_grants (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        stripe_object_id text NOT NULL,
        kind text NOT NULL,
        bundle_id uuid NOT NULL,
        purchase_id uuid NULL,
        renewal_id uuid NULL,
        pack text NOT NULL,
        credits integer NOT NULL,
        amount_cents integer NOT NULL,
        currency text NOT NULL,
        event_id text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_card_grants PRIMARY KEY (id),
        CONSTRAINT uq_card_grants_stripe_object_id UNIQUE (stripe_object_id),
        CONSTRAINT fk_card_grants_bundle_id FOREIGN KEY (bundle_id) REFERENCES bundles (id) ON DELETE CASCADE,
        CONSTRAINT fk_card_grants_purchase_id FOREIGN KEY (purchase_id) REFERENCES card_purchases (id) ON DELETE CASCADE,
        CONSTRAINT fk_card_grants_renewal_id FOREIGN KEY (renewal_id) REFERENCES card_renewals (id) ON DELETE CASCADE,
        CONSTRAINT ck_card_grants_kind CHECK ((kind = 'checkout' AND purchase_id IS NOT NULL) OR (kind = 'renewal' AND renewal_id IS NOT NULL)),
        CONSTRAINT ck_card_grants_credits CHECK (credits > 0 AND amount_cents > 0)
      )`);
    await queryRunner.query(`CREATE INDEX ix_card_grants_bundle_id ON card_grants (bundle_id)`);

    await queryRunner.query(`
      CREATE TABLE card_events (
        id text NOT NULL,
        type text NOT NULL,
        object_id text NULL,
        received_via text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        processed_at timestamptz NULL,
        outcome text NULL,
        CONSTRAINT pk_card_events PRIMARY KEY (id),
        CONSTRAINT ck_card_events_received_via CHECK (received_via IN ('webhook', 'reconciler')),
        CONSTRAINT ck_card_events_processed CHECK ((processed_at IS NULL) = (outcome IS NULL))
      )`);
    await queryRunner.query(`CREATE INDEX ix_card_events_unprocessed ON card_events (received_at) WHERE processed_at IS NULL`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_card_events_unprocessed`);
    await queryRunner.query(`DROP TABLE card_events`);
    await queryRunner.query(`DROP INDEX ix_card_grants_bundle_id`);
    await queryRunner.query(`DROP TABLE card_grants`);
    await queryRunner.query(`DROP TABLE card_renewal_charges`);
    await queryRunner.query(`DROP INDEX ix_card_renewals_due`);
    await queryRunner.query(`DROP INDEX ix_card_renewals_bundle_id`);
    await queryRunner.query(`DROP TABLE card_renewals`);
    await queryRunner.query(`DROP INDEX ix_card_purchases_bundle_id`);
    await queryRunner.query(`DROP TABLE card_purchases`);
    // Card bundles cannot exist under the old constraints (no wallet, no authorization).
    await queryRunner.query(`DELETE FROM bundles WHERE source = 'card'`);
    await queryRunner.query(`ALTER TABLE bundles DROP CONSTRAINT ck_bundles_credits_total`);
    await queryRunner.query(`ALTER TABLE bundles ADD CONSTRAINT ck_bundles_credits_total CHECK (credits_total > 0)`);
    await queryRunner.query(`ALTER TABLE bundles DROP CONSTRAINT ck_bundles_card_authorization`);
    await queryRunner.query(`ALTER TABLE bundles DROP CONSTRAINT ck_bundles_card_wallet`);
    await queryRunner.query(`ALTER TABLE bundles DROP CONSTRAINT ck_bundles_card_plan`);
    await queryRunner.query(`ALTER TABLE bundles DROP CONSTRAINT ck_bundles_source`);
    await queryRunner.query(`ALTER TABLE bundles ADD CONSTRAINT ck_bundles_source CHECK (source IN ('purchase', 'referral-reward'))`);
    await queryRunner.query(`ALTER TABLE bundles DROP CONSTRAINT ck_bundles_plan`);
    await queryRunner.query(`ALTER TABLE bundles ADD CONSTRAINT ck_bundles_plan CHECK (plan IN ('bundle', 'fleet', 'referral-reward'))`);
    await queryRunner.query(`ALTER TABLE bundles ALTER COLUMN authorization_id SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE bundles ALTER COLUMN wallet SET NOT NULL`);
  }
}
