import { expect } from 'chai';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../../../shared/db/create-data-source';
import { createDatabase, databaseUrl, dropDatabase } from '../../helpers/db';

async function tables(ds: DataSource): Promise<string[]> {
  const rows = (await ds.query(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'typeorm_migrations' ORDER BY table_name`,
  )) as Array<{ table_name: string }>;
  return rows.map((r) => r.table_name);
}

const EXPECTED_TABLES = [
  'aei_bundle_outcomes',
  'aei_companies',
  'aei_company_outcomes',
  'aei_outreach_drafts',
  'aei_outreach_research',
  'bundle_redemptions',
  'bundles',
  'calibration_shares',
  'card_events',
  'card_grants',
  'card_purchases',
  'card_renewal_charges',
  'card_renewals',
  'catalog_agent_quotes',
  'catalog_conversion_messages',
  'catalog_conversions',
  'catalog_handoffs',
  'catalog_install_plans',
  'catalog_install_workflows',
  'catalog_partners',
  'catalog_plan_grants',
  'coaching_attempts',
  'coaching_enrollments',
  'community_review_ratings',
  'community_review_responses',
  'community_review_sessions',
  'database_identity',
  'duels',
  'embed_checks',
  'free_callers',
  'free_corpus_entries',
  'idempotency_records',
  'ledger_sessions',
  'mcp_registry_key',
  'network_config',
  'network_config_changes',
  'operator_credentials',
  'outreach_status',
  'payment_authorizations',
  'pilot_erasures',
  'pilot_feedback',
  'pilot_invitations',
  'pilot_participants',
  'pilot_sponsors',
  'pilot_turns',
  'proof_card_buyers',
  'proof_card_counters',
  'proof_card_deliveries',
  'proof_card_snapshots',
  'public_result_views',
  'referral_codes',
  'referrals',
  'roleplay_rooms',
  'roleplay_turns',
  'wishlist_items',
  'wording_review_items',
  'wording_review_ratings',
  'wording_review_sessions',
];

// The house prefix of each constraint type (explicit names, never generated ones).
const PREFIX_OF_TYPE: Record<string, string> = { p: 'pk', f: 'fk', u: 'uq', c: 'ck', x: 'ex' };

/**
 * A fresh database of its own, so no test depends on the state another one left.
 * @param suffix - distinguishes the database of each describe
 * @param migrate - whether `before` runs every migration on it
 * @returns the DataSource, once `before` ran
 */
function ownDatabase(suffix: string, migrate: boolean): () => DataSource {
  const name = `humanlike_test_${process.pid}_migrations_${suffix}`;
  let ds: DataSource | undefined;
  before(async function () {
    await createDatabase(name);
    ds = createDataSource({ url: databaseUrl(name), poolMax: 1, ssl: false }, `test-migrations-${suffix}`);
    await ds.initialize();
    if (migrate) await ds.runMigrations();
  });
  after(async function () {
    await ds?.destroy();
    await dropDatabase(name);
  });
  return () => ds!;
}

describe('migrations', function () {
  const db = ownDatabase('updown', false);

  it('run up, down to an empty schema, then up again', async function () {
    const ds = db();
    const applied = await ds.runMigrations();
    expect(applied.length).to.be.at.least(1);
    expect(await tables(ds)).to.deep.equal(EXPECTED_TABLES);

    for (let i = 0; i < applied.length; i++) await ds.undoLastMigration();
    expect(await tables(ds)).to.deep.equal([]);
    expect(await ds.showMigrations()).to.equal(true);

    const again = await ds.runMigrations();
    expect(again.map((m) => m.name)).to.deep.equal(applied.map((m) => m.name));
    expect(await tables(ds)).to.deep.equal(EXPECTED_TABLES);
    expect(await ds.showMigrations()).to.equal(false);
  });
});

describe('the migrated schema', function () {
  const db = ownDatabase('schema', true);

  it('names every constraint explicitly, <type prefix>_<table>_...', async function () {
    const rows = (await db().query(
      `SELECT conname, contype, conrelid::regclass::text AS "table"
         FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
        WHERE n.nspname = 'public' AND conrelid::regclass::text <> 'typeorm_migrations' ORDER BY conname`,
    )) as Array<{ conname: string; contype: string; table: string }>;
    // Every table has its primary key: the rows below cannot be empty, whatever ran before.
    const primaryKeys = rows.filter((r) => r.contype === 'p').map((r) => r.table).sort();
    expect(primaryKeys).to.deep.equal(EXPECTED_TABLES);
    const misnamed = rows
      .filter((r) => {
        const stem = `${PREFIX_OF_TYPE[r.contype] ?? '?'}_${r.table}`;
        return r.conname !== stem && !r.conname.startsWith(`${stem}_`);
      })
      .map((r) => `${r.table}.${r.conname} (${r.contype})`);
    expect(misnamed).to.deep.equal([]);
  });

  it('matches the entities (no pending schema change)', async function () {
    const pending = await db().driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).to.deep.equal([]);
  });
});
