import type { DataSource } from 'typeorm';

/**
 * Reads the database's identity: the random id its migrations stored once (table
 * `database_identity`). Web stamps jobs with it and workers compare it, so it must come from the
 * database itself: web and worker may reach one database by different URLs, and several
 * databases may live on one server.
 * @param dataSource - an initialized DataSource
 * @returns the id (a uuid)
 * @throws Error saying to run the migrations when the table or its row is missing
 */
export async function readDatabaseId(dataSource: DataSource): Promise<string> {
  let rows: Array<{ id: string }>;
  try {
    rows = (await dataSource.query('SELECT id::text AS id FROM database_identity')) as Array<{ id: string }>;
  } catch (err) {
    // 42P01 undefined_table: a schema older than the identity migration.
    if ((err as { code?: string }).code !== '42P01') throw err;
    rows = [];
  }
  if (rows.length !== 1) {
    throw new Error('The database has no identity row (table database_identity); run the migrations (npm run migration:run) before web and worker');
  }
  return rows[0].id;
}
