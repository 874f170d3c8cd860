import { connect, type Socket } from 'node:net';
import { expect } from 'chai';
import { Client, Pool } from 'pg';
import { createLogger } from '../../../shared/logger';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../../supervisor/embedded-postgres';

/** Frontend messages written by hand, to send an extended-query batch in two pieces. */
const wire = {
  message(type: string, body: Buffer): Buffer {
    const length = Buffer.alloc(4);
    length.writeInt32BE(body.length + 4);
    return Buffer.concat([Buffer.from(type, 'latin1'), length, body]);
  },
  cstr: (s: string) => Buffer.from(`${s}\0`),
  startup(): Buffer {
    const body = Buffer.concat([Buffer.from([0, 3, 0, 0]), wire.cstr('user'), wire.cstr('postgres'), wire.cstr('database'), wire.cstr('postgres'), Buffer.from([0])]);
    const length = Buffer.alloc(4);
    length.writeInt32BE(body.length + 4);
    return Buffer.concat([length, body]);
  },
  parse: (sql: string) => wire.message('P', Buffer.concat([wire.cstr(''), wire.cstr(sql), Buffer.from([0, 0])])),
  bindOneText(value: string): Buffer {
    const length = Buffer.alloc(4);
    length.writeInt32BE(Buffer.byteLength(value));
    return wire.message('B', Buffer.concat([wire.cstr(''), wire.cstr(''), Buffer.from([0, 0, 0, 1]), length, Buffer.from(value), Buffer.from([0, 0])]));
  },
  execute: () => wire.message('E', Buffer.concat([wire.cstr(''), Buffer.alloc(4)])),
  sync: () => wire.message('S', Buffer.alloc(0)),
};

/** A raw protocol connection that collects everything the server sends. */
async function rawClient(port: number): Promise<{ socket: Socket; received: () => string; waitFor: (text: string) => Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  let data = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    data = Buffer.concat([data, chunk]);
  });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const received = () => data.toString('latin1');
  const waitFor = async (text: string) => {
    for (let i = 0; i < 200 && !received().includes(text); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    if (!received().includes(text)) throw new Error(`never received ${JSON.stringify(text)}`);
  };
  socket.write(wire.startup());
  // ReadyForQuery, idle: 'Z', length 5, 'I'.
  await waitFor('Z\0\0\0\x05I');
  data = Buffer.alloc(0);
  return { socket, received, waitFor };
}

describe('supervisor/embedded-postgres', function () {
  // Creating a PGlite database (initdb in WASM) takes several seconds.
  this.timeout(60_000);
  let pg: EmbeddedPostgres;

  before(async function () {
    pg = await startEmbeddedPostgres({ dataDir: 'memory://', maxConnections: 8, log: createLogger({ log: { level: 'silent' } }, 'test') });
  });
  after(async function () {
    await pg?.stop(5_000);
  });

  it('serves the pg driver on a loopback URL', async function () {
    expect(pg.url).to.equal(`postgres://postgres@127.0.0.1:${pg.port}/postgres`);
    const client = new Client({ connectionString: pg.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>('SELECT $1::int + 1 AS n', [41]);
      expect(rows[0].n).to.equal(42);
    } finally {
      await client.end();
    }
  });

  it("never lets another client's statement into a batch that arrives in pieces (pglite#1046)", async function () {
    const a = await rawClient(pg.port);
    const b = new Client({ connectionString: pg.url });
    try {
      a.socket.write(wire.parse("SELECT 'A:' || $1::text AS v"));
      await new Promise((resolve) => setTimeout(resolve, 100));
      // With pglite-socket's own queue, B's Parse replaces A's unnamed statement here.
      const bResult = b.connect().then(() => b.query<{ v: string }>("SELECT 'B:' || $1::text || $2::text AS v", ['b', 'c']));
      await new Promise((resolve) => setTimeout(resolve, 200));
      a.socket.write(Buffer.concat([wire.bindOneText('a'), wire.execute(), wire.sync()]));
      await a.waitFor('Z\0\0\0\x05I');
      expect(a.received()).to.contain('A:a').and.not.contain('ERROR');
      expect((await bResult).rows).to.deep.equal([{ v: 'B:bc' }]);
    } finally {
      a.socket.destroy();
      await b.end();
    }
  });

  it('answers concurrent pools correctly while large parameters arrive in many chunks', async function () {
    const big = new Pool({ connectionString: pg.url, max: 3 });
    const small = new Pool({ connectionString: pg.url, max: 3 });
    const text = 'y'.repeat(300_000);
    try {
      const work: Array<Promise<boolean>> = [];
      for (let i = 0; i < 30; i++) {
        work.push(big.query<{ n: number; i: number }>('SELECT length($1::text) AS n, $2::int AS i', [text, i]).then((r) => r.rows[0].n === text.length && r.rows[0].i === i));
        work.push(small.query<{ v: number }>('SELECT $1::int AS v', [i]).then((r) => r.rows[0].v === i));
      }
      expect((await Promise.all(work)).every(Boolean)).to.equal(true);
    } finally {
      await Promise.all([big.end(), small.end()]);
    }
  });

  it('rolls back the transaction of a client that disconnects inside it, and serves the others (pglite#985)', async function () {
    const setup = new Client({ connectionString: pg.url });
    await setup.connect();
    await setup.query('CREATE TABLE IF NOT EXISTS left_behind (x int)');
    await setup.end();

    const a = await rawClient(pg.port);
    a.socket.write(wire.message('Q', wire.cstr('BEGIN; INSERT INTO left_behind VALUES (1)')));
    await a.waitFor('Z\0\0\0\x05T');
    a.socket.destroy();

    const b = new Client({ connectionString: pg.url });
    await b.connect();
    try {
      const { rows } = await b.query<{ n: number }>('SELECT count(*)::int AS n FROM left_behind');
      expect(rows[0].n).to.equal(0);
    } finally {
      await b.end();
    }
  });
});
