import type { Pool, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';

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

/**
 * Runs a hot statement on the DataSource's pool: prepared once per connection where the
 * DataSource allows it, otherwise as a one-off statement like any other query.
 * @param dataSource - an initialized DataSource
 * @param statement - the statement
 * @param values - its parameters
 * @returns the rows
 */
export async function runHotStatement<R extends QueryResultRow>(dataSource: DataSource, statement: HotStatement, values: unknown[]): Promise<R[]> {
  if (!preparing.has(dataSource)) return (await dataSource.query(statement.text, values)) as R[];
  // TypeORM's Postgres driver keeps the node-postgres Pool as `master`.
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  const result = await pool.query<R>({ name: statement.name, text: statement.text, values });
  return result.rows;
}
