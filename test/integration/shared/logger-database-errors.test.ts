import { Writable } from 'node:stream';
import { expect } from 'chai';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../../../shared/db/create-data-source';
import { createLogger } from '../../../shared/logger';
import { ensureTestDatabase } from '../../helpers/db';

// What a person might submit: it must never reach a log line, whatever the database says about it.
const SUBMITTED = 'my manager yelled at me again and I cannot sleep';

describe('the logger and database errors', function () {
  let dataSource: DataSource;

  before(async function () {
    dataSource = createDataSource({ url: await ensureTestDatabase(), poolMax: 2, ssl: false, preparedStatements: false }, 'test');
    await dataSource.initialize();
  });

  after(async function () {
    await dataSource?.destroy();
  });

  async function loggedFailure(sql: string, parameters: unknown[]): Promise<string> {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const log = createLogger({ log: { level: 'info' } }, 'test', sink);
    const err = await dataSource.query(sql, parameters).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err, sql).to.be.an('error');
    log.error({ err }, 'statement failed');
    expect(lines).to.have.length(1);
    return lines[0];
  }

  it('keeps the bound values, the failing row and a quoted value out of the line, and the SQLSTATE in', async function () {
    const cases: Array<[string, unknown[], string]> = [
      // The value is quoted in the message: invalid input syntax for type integer: "...".
      ['SELECT $1::int AS n', [SUBMITTED], '22P02'],
      // DETAIL: Failing row contains (..., null).
      ['INSERT INTO outreach_status (lead_id, done) VALUES ($1, NULL)', [SUBMITTED], '23502'],
    ];
    for (const [sql, parameters, code] of cases) {
      const line = await loggedFailure(sql, parameters);
      expect(line, sql).not.to.contain('yelled');
      expect(line, sql).not.to.contain('sleep');
      expect(line, sql).to.contain(code);
      expect(line, sql).to.contain('statement failed');
    }
  });
});
