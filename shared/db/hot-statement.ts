import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { EntityManager, type DataSource } from 'typeorm';

/**
 * A statement on a request's critical path, run often enough to keep prepared: its name is unique
 * in the service, its text fixed (values are parameters).
 */
export interface HotStatement {
  readonly name: string;
  readonly text: string;
}

// DataSources whose connections keep hot statements prepared (see createDataSource).
const preparing = new WeakSet<DataSource>();

/**
 * Lets a DataSource run hot statements as named prepared statements: each pooled connection
 * parses and plans a statement once, then only binds and executes it. Only for connections that
 * each have their own backend session.
 * @param dataSource - the DataSource (initialized or not)
 */
export function usePreparedStatements(dataSource: DataSource): void {
  preparing.add(dataSource);
}

// The node-postgres connection to run on: the transaction's own client inside a transaction,
// else the pool TypeORM's Postgres driver keeps as `master`.
async function connectionOf(db: DataSource | EntityManager, dataSource: DataSource): Promise<Pick<Pool | PoolClient, 'query'>> {
  if (db instanceof EntityManager && db.queryRunner) return (await db.queryRunner.connect()) as PoolClient;
  const pool = (dataSource.driver as unknown as { master?: Pool }).master;
  if (!pool) throw new Error('the DataSource is not initialized');
  return pool;
}

/**
 * Runs a hot statement: prepared once per connection where the DataSource allows it, otherwise as
 * a one-off statement. Inside a transaction (an EntityManager from `DataSource.transaction`) it
 * runs on the transaction's connection. Either way the answer is the rows (RETURNING rows for
 * INSERT, UPDATE and DELETE).
 * @param db - an initialized DataSource, or a transaction's EntityManager
 * @param statement - the statement
 * @param values - its parameters
 * @returns the rows
 */
export async function runHotStatement<R extends QueryResultRow>(
  db: DataSource | EntityManager,
  statement: HotStatement,
  values: unknown[],
): Promise<R[]> {
  const dataSource = db instanceof EntityManager ? db.connection : db;
  const connection = await connectionOf(db, dataSource);
  const query = preparing.has(dataSource) ? { name: statement.name, text: statement.text, values } : { text: statement.text, values };
  return (await connection.query<R>(query)).rows;
}
