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
  'bundle_redemptions',
  'bundles',
  'calibration_shares',
  'database_identity',
  'free_callers',
  'free_corpus_entries',
  'idempotency_records',
  'ledger_sessions',
  'payment_authorizations',
  'referral_codes',
  'referrals',
  'wishlist_items',
];

describe('migrations', function () {
  const name = `humanlike_test_${process.pid}_migrations`;
  let ds: DataSource;

  before(async function () {
    await createDatabase(name);
    ds = createDataSource({ url: databaseUrl(name), poolMax: 1, ssl: false }, 'test-migrations');
    await ds.initialize();
  });
  after(async function () {
    await ds?.destroy();
    await dropDatabase(name);
  });

  it('run up, down to an empty schema, then up again', async function () {
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

  it('names every constraint explicitly', async function () {
    const rows = (await ds.query(
      `SELECT conname FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
        WHERE n.nspname = 'public' AND conrelid::regclass::text <> 'typeorm_migrations' ORDER BY conname`,
    )) as Array<{ conname: string }>;
    for (const { conname } of rows) expect(conname).to.match(/^(pk|fk|uq|ck)_/);
  });

  it('matches the entities (no pending schema change)', async function () {
    const pending = await ds.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).to.deep.equal([]);
  });
});
