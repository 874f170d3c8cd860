import { Client } from 'pg';
import { createDataSource } from '../../shared/db/create-data-source';

/** Server-level URL used to create and drop test databases (trust auth, user postgres). */
export const PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * URL of a database on the test server.
 * @param name - database name
 * @returns its URL
 */
export function databaseUrl(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** This run's database: one per mocha process, created on first use, dropped at the end. */
export const TEST_DB_NAME = `humanlike_test_${process.pid}`;
export const TEST_DATABASE_URL = databaseUrl(TEST_DB_NAME);

const created = new Set<string>();
let ready: Promise<string> | undefined;

/**
 * Creates an empty database.
 * @param name - database name (dropped first if a crashed run left it)
 */
export async function createDatabase(name: string): Promise<void> {
  const admin = new Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
    created.add(name);
  } finally {
    await admin.end();
  }
}

/**
 * Drops a database, closing any connection still open to it.
 * @param name - database name
 */
export async function dropDatabase(name: string): Promise<void> {
  const admin = new Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    created.delete(name);
  } finally {
    await admin.end();
  }
}

/**
 * The run's database with every migration applied (created and migrated once, on first call).
 * @returns its URL
 */
export function ensureTestDatabase(): Promise<string> {
  ready ??= (async () => {
    await createDatabase(TEST_DB_NAME);
    const ds = createDataSource({ url: TEST_DATABASE_URL, poolMax: 1, ssl: false }, 'test-migrate');
    await ds.initialize();
    try {
      await ds.runMigrations();
    } finally {
      await ds.destroy();
    }
    return TEST_DATABASE_URL;
  })();
  return ready;
}

/**
 * Empties every table the migrations made (between tests).
 * @param query - runs SQL on the test database
 */
export async function truncateAll(query: (sql: string) => Promise<unknown>): Promise<void> {
  // TRUNCATE locks every table in the list, one after another; a stack's own background work (a
  // scheduled maintenance job, a settlement finishing) may hold two of them in the other order.
  // PostgreSQL then aborts one of the two as a deadlock: when it picks the TRUNCATE, run it again.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await query(TRUNCATE_ALL);
      return;
    } catch (err) {
      const code = (err as { code?: string; driverError?: { code?: string } }).driverError?.code ?? (err as { code?: string }).code;
      if (code !== DEADLOCK_DETECTED || attempt === 5) throw err;
    }
  }
}

const DEADLOCK_DETECTED = '40P01';

const TRUNCATE_ALL =
  'TRUNCATE pilot_feedback, pilot_turns, pilot_invitations, pilot_participants, pilot_sponsors, pilot_erasures, catalog_conversions, catalog_conversion_messages, catalog_handoffs, catalog_partners, catalog_plan_grants, catalog_agent_quotes, catalog_install_plans, catalog_install_workflows, embed_checks, aei_outreach_drafts, aei_outreach_research, aei_bundle_outcomes, aei_company_outcomes, aei_companies, card_events, card_grants, card_renewal_charges, card_renewals, card_purchases, bundle_redemptions, bundles, referrals, free_corpus_entries, wishlist_items, free_callers, ledger_sessions, idempotency_records, calibration_shares, referral_codes, payment_authorizations, network_config_changes, network_config, operator_credentials, proof_card_counters, proof_card_deliveries, proof_card_buyers, proof_card_snapshots, community_review_ratings, community_review_responses, community_review_sessions, wording_review_ratings, wording_review_items, wording_review_sessions, outreach_status, public_result_views RESTART IDENTITY CASCADE';

// Root-level hook (this module is imported while mocha loads spec files): drop what the run created.
after(async function dropTestDatabases() {
  for (const name of [...created]) await dropDatabase(name);
});

/**
 * Resolves once exactly `count` sessions of the current database wait on a lock: the statements a
 * race test started are all blocked where it wants them.
 * @param query - runs SQL on the database (a DataSource's query)
 * @param count - sessions expected to wait
 * @param timeoutMs - how long to wait before failing
 */
export async function waitForLockWaiters(query: (sql: string) => Promise<unknown>, count: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = (await query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    )) as Array<{ n: number }>;
    if (rows[0].n === count) return;
    if (Date.now() > deadline) throw new Error(`expected ${count} sessions waiting for a lock, saw ${rows[0].n}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
