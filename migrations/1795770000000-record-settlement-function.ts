import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Settlement in one round trip: `record_settlement` marks a scored authorization
 * settled, binds its referral, writes the ledger row and any calibration share, and accrues the
 * referrer's reward, as one statement (its own transaction in autocommit) instead of a client-side
 * transaction of five or more. `referrer_chain_contains` is the referral cycle check, used by that
 * function and by the check before payment.
 *
 * The product terms (reward percent, basic prices, the SOL asset name) are parameters: the
 * product catalog in TypeScript stays their only source.
 */
export class RecordSettlementFunction1795770000000 implements MigrationInterface {
  name = 'RecordSettlementFunction1795770000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    // Whether p_wallet is in the referrer chain above p_start (p_start's referrer, its referrer,
    // ...): then p_wallet taking p_start's code would close a cycle. Chains are paths (one referrer
    // per wallet); the depth bound only stops a corrupted table.
    await queryRunner.query(`
      CREATE FUNCTION referrer_chain_contains(p_start text, p_wallet text) RETURNS boolean
      LANGUAGE sql STABLE AS $$
        WITH RECURSIVE chain (wallet, depth) AS (
          SELECT referrer_wallet, 1 FROM referrals WHERE referred_wallet = p_start
          UNION
          SELECT r.referrer_wallet, c.depth + 1 FROM referrals r JOIN chain c ON r.referred_wallet = c.wallet WHERE c.depth < 10000)
        SELECT EXISTS (SELECT 1 FROM chain WHERE wallet = p_wallet)
      $$`);
    // Returns the new ledger row, or no row when the authorization is not scored (settled before:
    // idempotent). Lock order, as before: the authorization row (the UPDATE), the payer's advisory
    // lock (serializes one wallet's settlements, so "is this wallet new?" cannot race), and, only
    // to bind a referral, the global referrals lock (two wallets taking each other's codes).
    //
    // VOLATILE on purpose: in READ COMMITTED each statement below takes a fresh snapshot, so
    // whatever runs after a lock is granted sees the rows committed by the holder it waited for
    // (one big CTE would read everything in the snapshot taken before its locks).
    await queryRunner.query(`
      CREATE FUNCTION record_settlement(
        p_id uuid, p_transaction text, p_reward_pct numeric, p_basic_usdc_units numeric, p_basic_lamports numeric, p_sol_asset text
      ) RETURNS SETOF ledger_sessions
      LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        auth payment_authorizations%ROWTYPE;
        ledger ledger_sessions%ROWTYPE;
        summary jsonb;
        referrer text;
        usdc_spent numeric;
        lamports_spent numeric;
      BEGIN
        UPDATE payment_authorizations pa
           SET status = 'settled', transaction = p_transaction, settled_at = now(), updated_at = now(), last_error = NULL
         WHERE pa.id = p_id AND pa.status = 'scored'
         RETURNING pa.* INTO auth;
        IF NOT FOUND THEN
          RETURN;
        END IF;
        PERFORM pg_advisory_xact_lock(hashtextextended('humanlike:payer:' || auth.payer, 0));
        summary := auth.summary;

        -- Referral: a new wallet's first purchase (no settled ledger row yet, so before this one is
        -- written) binds to the code's owner unless that is the payer or would close a cycle. A
        -- purchase whose referral no longer qualifies settles unreferred.
        IF summary->>'referralCode' <> '' THEN
          SELECT rc.wallet INTO referrer FROM referral_codes rc WHERE rc.code = summary->>'referralCode';
          IF referrer IS NOT NULL AND referrer <> auth.payer
             AND NOT EXISTS (SELECT 1 FROM ledger_sessions l WHERE l.payer = auth.payer) THEN
            PERFORM pg_advisory_xact_lock(hashtextextended('humanlike:referrals', 0));
            IF NOT referrer_chain_contains(referrer, auth.payer) THEN
              INSERT INTO referrals (referred_wallet, referrer_wallet, authorization_id) VALUES (auth.payer, referrer, auth.id)
              ON CONFLICT ON CONSTRAINT pk_referrals DO NOTHING;
            END IF;
          END IF;
        END IF;

        INSERT INTO ledger_sessions
          (authorization_id, product, tier, profile, score, passed, result_id, network, asset, amount, transaction, payer,
           request_hash, created_at, settled_at, persona_targets, measured_dimensions, training_text)
        VALUES (auth.id, auth.product, auth.tier, summary->>'profile', (summary->>'score')::double precision,
                (summary->>'passed')::boolean, auth.result_id, auth.network, auth.asset, auth.amount, p_transaction, auth.payer,
                auth.request_hash, auth.created_at, auth.settled_at, NULLIF(summary->'personaTargets', 'null'),
                NULLIF(summary->'measuredDimensions', 'null'), summary->>'trainingText')
        RETURNING * INTO ledger;

        -- The consented text lives in the ledger row only; the replay copy of the summary drops it.
        IF summary->>'trainingText' IS NOT NULL THEN
          UPDATE payment_authorizations pa SET summary = pa.summary - 'trainingText' WHERE pa.id = auth.id;
        END IF;
        IF auth.calibration_text IS NOT NULL AND summary->>'profile' <> '' AND summary->>'score' IS NOT NULL THEN
          INSERT INTO calibration_shares (result_id, profile, eq_score, text, scorer_version)
          VALUES (auth.result_id, summary->>'profile', (summary->>'score')::double precision, auth.calibration_text,
                  summary->>'scorerVersion')
          ON CONFLICT ON CONSTRAINT uq_calibration_shares_result_id DO NOTHING;
          UPDATE payment_authorizations pa SET calibration_text = NULL WHERE pa.id = auth.id;
        END IF;

        -- A referred wallet's purchase adds its spend (per currency), one qualifying purchase, and
        -- the credits earned so far, recomputed from the cumulative spend
        -- (floor(spend * reward_pct / 100 / basic price) per currency), so a remainder carries over
        -- to the next purchase. Once per authorization: this runs only when the UPDATE above did.
        usdc_spent := CASE WHEN auth.asset = p_sol_asset THEN 0 ELSE auth.amount END;
        lamports_spent := CASE WHEN auth.asset = p_sol_asset THEN auth.amount ELSE 0 END;
        UPDATE referrals r
           SET spent_usdc_units = r.spent_usdc_units + usdc_spent,
               spent_lamports = r.spent_lamports + lamports_spent,
               qualifying_purchases = r.qualifying_purchases + 1,
               credits_earned = GREATEST(r.credits_earned,
                 div((r.spent_usdc_units + usdc_spent) * p_reward_pct, 100 * p_basic_usdc_units)
                 + div((r.spent_lamports + lamports_spent) * p_reward_pct, 100 * p_basic_lamports)),
               updated_at = now()
         WHERE r.referred_wallet = auth.payer;

        RETURN NEXT ledger;
      END
      $$`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION record_settlement(uuid, text, numeric, numeric, numeric, text)`);
    await queryRunner.query(`DROP FUNCTION referrer_chain_contains(text, text)`);
  }
}
