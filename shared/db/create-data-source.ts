import 'reflect-metadata';
import path from 'node:path';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config';
import { ConfigError } from '../errors';
import { usePreparedStatements } from './hot-statement';
import {
  Bundle,
  BundleRedemption,
  CalibrationShare,
  FreeCaller,
  FreeCorpusEntry,
  IdempotencyRecord,
  LedgerSession,
  OperatorCredential,
  PaymentAuthorization,
  Referral,
  ReferralCode,
  RoleplayRoom,
  RoleplayTurn,
  WishlistItem,
} from './entities';

/** Every entity the service maps. */
export const ENTITIES = [
  FreeCaller,
  WishlistItem,
  FreeCorpusEntry,
  PaymentAuthorization,
  LedgerSession,
  IdempotencyRecord,
  ReferralCode,
  CalibrationShare,
  Bundle,
  BundleRedemption,
  Referral,
  OperatorCredential,
  RoleplayRoom,
  RoleplayTurn,
];

// Compiled: dist/migrations/*.js; under tsx (tests): migrations/*.ts. Never both in one tree.
const MIGRATIONS_GLOB = path.join(__dirname, '..', '..', 'migrations', '*.{js,ts}');

/**
 * Builds the one PostgreSQL DataSource the API, the workers and the TypeORM CLI use.
 * `synchronize` is off: every schema change is a migration.
 * @param db - the `db` section of the config
 * @param applicationName - shown in pg_stat_activity (web, worker, migrate)
 * @returns an uninitialized DataSource
 * @throws ConfigError when no DATABASE_URL is configured
 */
export function createDataSource(db: AppConfig['db'], applicationName: string): DataSource {
  if (!db.url) {
    throw new ConfigError(['DATABASE_URL is not set (postgres://user:password@host:5432/db); `npm start` sets one for you']);
  }
  const dataSource = new DataSource({
    type: 'postgres',
    url: db.url,
    ssl: db.ssl ? { rejectUnauthorized: false } : false,
    applicationName,
    entities: ENTITIES,
    migrations: [MIGRATIONS_GLOB],
    migrationsTableName: 'typeorm_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: { max: db.poolMax, connectionTimeoutMillis: 5_000 },
  });
  if (db.preparedStatements) usePreparedStatements(dataSource);
  return dataSource;
}
