import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import type { PGlite } from '@electric-sql/pglite';
import { expect } from 'chai';
import { installSessionQueue, SessionQueue, type ProtocolSession } from '../../../supervisor/session-queue';

/** A frontend message: type byte, length, body (the body doubles as a label in these tests). */
function message(type: string, body = ''): Uint8Array {
  const bytes = Buffer.alloc(5 + body.length);
  bytes.write(type, 0, 'latin1');
  bytes.writeInt32BE(4 + body.length, 1);
  bytes.write(body, 5, 'latin1');
  return new Uint8Array(bytes);
}

function label(bytes: Uint8Array): string {
  const body = Buffer.from(bytes).subarray(5).toString('latin1').replace(/\0$/, '');
  return body ? `${String.fromCharCode(bytes[0])}:${body}` : String.fromCharCode(bytes[0]);
}

/** PGlite's single session, reduced to what the queue uses: it records what ran, in order. */
class FakeSession implements ProtocolSession {
  ran: string[] = [];
  inTransaction = false;
  failOn?: string;

  runExclusive<T>(fn: () => Promise<T>): Promise<T> {
    return fn();
  }

  async execProtocolRawStream(bytes: Uint8Array, options?: { onRawData: (data: Uint8Array) => void }): Promise<void> {
    await Promise.resolve();
    const name = label(bytes);
    if (name === this.failOn) throw new Error('wasm trap');
    this.ran.push(name);
    if (name === 'Q:BEGIN') this.inTransaction = true;
    if (name === 'Q:COMMIT' || name === 'Q:ROLLBACK') this.inTransaction = false;
    options?.onRawData(new Uint8Array([0x5a]));
  }

  isInTransaction(): boolean {
    return this.inTransaction;
  }
}

const noop = () => undefined;

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

describe('supervisor/session-queue SessionQueue', function () {
  it("runs one client's extended-query batch whole, even when another client's arrives in between", async function () {
    const db = new FakeSession();
    const queue = new SessionQueue(db);
    const done = [
      queue.enqueue(1, message('P', 'a'), noop),
      queue.enqueue(2, message('P', 'b'), noop),
      queue.enqueue(2, message('B', 'b'), noop),
      queue.enqueue(2, message('E', 'b'), noop),
      queue.enqueue(2, message('S'), noop),
      queue.enqueue(1, message('B', 'a'), noop),
      queue.enqueue(1, message('E', 'a'), noop),
      queue.enqueue(1, message('S'), noop),
    ];
    await Promise.all(done);
    expect(db.ran).to.deep.equal(['P:a', 'B:a', 'E:a', 'S', 'P:b', 'B:b', 'E:b', 'S']);
  });

  it("waits for the session holder's next message instead of running anyone else", async function () {
    const db = new FakeSession();
    const queue = new SessionQueue(db);
    const parse = queue.enqueue(1, message('P', 'a'), noop);
    const other = queue.enqueue(2, message('Q', 'SELECT 2'), noop);
    await parse;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(db.ran).to.deep.equal(['P:a']);
    await queue.enqueue(1, message('S'), noop);
    await other;
    expect(db.ran).to.deep.equal(['P:a', 'S', 'Q:SELECT 2']);
  });

  it('keeps a transaction block to its client until it ends', async function () {
    const db = new FakeSession();
    const queue = new SessionQueue(db);
    const done = [
      queue.enqueue(1, message('Q', 'BEGIN'), noop),
      queue.enqueue(2, message('Q', 'SELECT 2'), noop),
      queue.enqueue(1, message('Q', 'INSERT'), noop),
      queue.enqueue(1, message('Q', 'COMMIT'), noop),
    ];
    await Promise.all(done);
    expect(db.ran).to.deep.equal(['Q:BEGIN', 'Q:INSERT', 'Q:COMMIT', 'Q:SELECT 2']);
  });

  it('ends the batch and rolls back the transaction of a holder that leaves, then serves the others', async function () {
    const db = new FakeSession();
    const queue = new SessionQueue(db);
    await queue.enqueue(1, message('Q', 'BEGIN'), noop);
    await queue.enqueue(1, message('P', 'half'), noop);
    const waiting = queue.enqueue(2, message('Q', 'SELECT 2'), noop);
    queue.clearQueueForHandler(1);
    await queue.clearTransactionIfNeeded(1);
    await waiting;
    expect(db.ran).to.deep.equal(['Q:BEGIN', 'P:half', 'S', 'Q:ROLLBACK', 'Q:SELECT 2']);
    expect(db.inTransaction).to.equal(false);
  });

  it('does nothing for a leaving client that does not hold the session', async function () {
    const db = new FakeSession();
    const queue = new SessionQueue(db);
    await queue.enqueue(1, message('Q', 'SELECT 1'), noop);
    await queue.clearTransactionIfNeeded(1);
    expect(db.ran).to.deep.equal(['Q:SELECT 1']);
  });

  it('rejects the queued messages of a client that left', async function () {
    const db = new FakeSession();
    const queue = new SessionQueue(db);
    await queue.enqueue(1, message('P', 'a'), noop);
    const dropped = queue.enqueue(2, message('Q', 'SELECT 2'), noop);
    expect(queue.getQueueLength()).to.equal(1);
    queue.clearQueueForHandler(2);
    expect((await rejection(dropped)).message).to.match(/Handler disconnected/);
    expect(queue.getQueueLength()).to.equal(0);
  });

  it('fails only the message that failed to run, and keeps serving', async function () {
    const db = new FakeSession();
    db.failOn = 'Q:BOOM';
    const queue = new SessionQueue(db);
    const failed = queue.enqueue(1, message('Q', 'BOOM'), noop);
    const next = queue.enqueue(2, message('Q', 'SELECT 2'), noop);
    expect((await rejection(failed)).message).to.match(/wasm trap/);
    await next;
    expect(db.ran).to.deep.equal(['Q:SELECT 2']);
  });

  it('passes the reply bytes on and reports their count', async function () {
    const queue = new SessionQueue(new FakeSession());
    const seen: number[] = [];
    const bytes = await queue.enqueue(1, message('Q', 'SELECT 1'), (data) => seen.push(...data));
    expect(bytes).to.equal(1);
    expect(seen).to.deep.equal([0x5a]);
  });

  it('tells when it is idle', async function () {
    const queue = new SessionQueue(new FakeSession());
    await queue.whenIdle();
    const running = queue.enqueue(1, message('Q', 'SELECT 1'), noop);
    await queue.whenIdle();
    expect(await running).to.equal(1);
  });
});

describe('supervisor/session-queue installSessionQueue', function () {
  it('replaces the query queue of the installed pglite-socket server', function () {
    const server = new PGLiteSocketServer({ db: {} as PGlite, port: 0 });
    const queue = new SessionQueue(new FakeSession());
    installSessionQueue(server, queue);
    expect((server as unknown as { queryQueue: unknown }).queryQueue).to.equal(queue);
  });

  it('refuses a server without the queue it replaces', function () {
    expect(() => installSessionQueue({}, new SessionQueue(new FakeSession()))).to.throw(/no queryQueue to replace/);
  });
});
