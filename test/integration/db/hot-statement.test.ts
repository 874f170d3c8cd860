import { expect } from 'chai';
import { createDataSource } from '../../../shared/db/create-data-source';
import { runHotStatement } from '../../../shared/db/hot-statement';
import { ensureTestDatabase } from '../../helpers/db';

describe('hot statements', function () {
  const statement = { name: 'test_hot_echo', text: 'SELECT $1::int + 1 AS n' };

  async function preparedOn(preparedStatements: boolean): Promise<string[]> {
    // One connection, so the statement and the catalogue read share a session.
    const ds = createDataSource({ url: await ensureTestDatabase(), poolMax: 1, ssl: false, preparedStatements }, 'test-hot');
    await ds.initialize();
    try {
      expect(await runHotStatement<{ n: number }>(ds, statement, [41])).to.deep.equal([{ n: 42 }]);
      expect(await runHotStatement<{ n: number }>(ds, statement, [1])).to.deep.equal([{ n: 2 }]);
      const rows = (await ds.query('SELECT name FROM pg_prepared_statements')) as Array<{ name: string }>;
      return rows.map((r) => r.name);
    } finally {
      await ds.destroy();
    }
  }

  it('runs as a named prepared statement, kept by the connection', async function () {
    expect(await preparedOn(true)).to.include('test_hot_echo');
  });

  it('runs as a one-off statement where prepared statements are off (a shared backend session)', async function () {
    expect(await preparedOn(false)).not.to.include('test_hot_echo');
  });
});
