import type { PGlite } from '@electric-sql/pglite';

/** What the queue needs of PGlite: its one backend session. */
export type ProtocolSession = Pick<PGlite, 'runExclusive' | 'execProtocolRawStream' | 'isInTransaction'>;

interface Pending {
  handlerId: number;
  /** A client's protocol message, or undefined for the queue's own clean-up of a departed client. */
  message?: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (err: Error) => void;
}

// Extended-query (and COPY) messages that leave the backend mid-batch until the client's Sync:
// Parse, Bind, Describe, Execute, Close, Flush, CopyData, CopyDone, CopyFail.
const MID_BATCH = new Set(['P', 'B', 'D', 'E', 'C', 'H', 'd', 'c', 'f'].map((c) => c.charCodeAt(0)));

function frame(type: string, body: Buffer): Uint8Array {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return new Uint8Array(Buffer.concat([header, body]));
}

const SYNC = frame('S', Buffer.alloc(0));
const ROLLBACK = frame('Q', Buffer.from('ROLLBACK\0', 'latin1'));
const discard = () => undefined;

/**
 * Multiplexes the client connections of a pglite-socket server onto PGlite's single backend
 * session, one client at a time per unit of work.
 *
 * pglite-socket 0.2.x schedules single protocol messages and pins a client only inside a
 * transaction block. An extended-query batch (Parse, Bind, Execute, Sync) is not a transaction, so
 * when a client's batch arrives in several TCP chunks (a large parameter), another client's Parse
 * can replace the unnamed statement between its Parse and its Bind: bind errors, or silently the
 * wrong rows (electric-sql/pglite#1046). Its queue also stalls for good after one failed message,
 * and can stall when a client leaves mid-transaction (#985).
 *
 * This queue pins the session to a client from its first extended-query message until its Sync,
 * and for as long as a transaction block is open; other clients' messages wait in arrival order.
 * A failed message fails only its own client. A client that leaves while holding the session has
 * its batch closed and its transaction rolled back before anyone else runs.
 *
 * It implements the interface pglite-socket's handlers call (`enqueue`, `clearQueueForHandler`,
 * `clearTransactionIfNeeded`, `getQueueLength`); see `installSessionQueue`.
 */
export class SessionQueue {
  readonly #db: ProtocolSession;
  #pending: Pending[] = [];
  /** The client holding the session (mid-batch or in a transaction block), if any. */
  #owner: number | null = null;
  #draining = false;
  #idleWaiters: Array<() => void> = [];

  /** @param db - the PGlite instance the socket server serves */
  constructor(db: ProtocolSession) {
    this.#db = db;
  }

  /**
   * Queues one protocol message of a client and runs it when the session is free for that client.
   * @param handlerId - the client (pglite-socket handler id)
   * @param message - one complete frontend message
   * @param onData - receives the backend's reply bytes
   * @returns the number of reply bytes
   */
  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.#pending.push({ handlerId, message, onData, resolve, reject });
      void this.#drain();
    });
  }

  /**
   * Drops the queued messages of a client that went away (their senders get a rejection).
   * @param handlerId - the client
   */
  clearQueueForHandler(handlerId: number): void {
    const kept: Pending[] = [];
    for (const item of this.#pending) {
      if (item.handlerId === handlerId && item.message) item.reject(new Error('Handler disconnected'));
      else kept.push(item);
    }
    this.#pending = kept;
  }

  /**
   * When a departing client holds the session, closes its batch and rolls back its transaction
   * block before any other client runs.
   * @param handlerId - the client
   */
  clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.#owner !== handlerId) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      // First in line: only the owner's work may run while it holds the session.
      this.#pending.unshift({ handlerId, onData: discard, resolve: () => resolve(), reject });
      void this.#drain();
    });
  }

  /** @returns messages waiting to run */
  getQueueLength(): number {
    return this.#pending.length;
  }

  /** @returns resolves once nothing runs and nothing that can run is waiting */
  whenIdle(): Promise<void> {
    if (!this.#draining) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  async #drain(): Promise<void> {
    if (this.#draining) return;
    this.#draining = true;
    try {
      for (;;) {
        const index = this.#owner === null ? 0 : this.#pending.findIndex((p) => p.handlerId === this.#owner);
        if (index < 0 || this.#pending.length === 0) break;
        const [item] = this.#pending.splice(index, 1);
        try {
          const bytes = await this.#run(item);
          item.resolve(bytes);
        } catch (err) {
          item.reject(err instanceof Error ? err : new Error(String(err)));
        }
        this.#owner = this.#holdsSession(item) ? item.handlerId : null;
      }
    } finally {
      this.#draining = false;
      for (const wake of this.#idleWaiters.splice(0)) wake();
    }
  }

  async #run(item: Pending): Promise<number> {
    const db = this.#db;
    let bytes = 0;
    await db.runExclusive(async () => {
      if (item.message) {
        await db.execProtocolRawStream(item.message, {
          onRawData: (data) => {
            bytes += data.length;
            item.onData(data);
          },
        });
        return;
      }
      // Clean-up after a departed owner: end its extended-query batch (the backend skips messages
      // after an error until a Sync), then its transaction block.
      await db.execProtocolRawStream(SYNC, { onRawData: discard });
      if (db.isInTransaction()) await db.execProtocolRawStream(ROLLBACK, { onRawData: discard });
    });
    return bytes;
  }

  #holdsSession(item: Pending): boolean {
    try {
      if (this.#db.isInTransaction()) return true;
    } catch {
      // A database that cannot answer this has failed; nobody keeps a session on it.
      return false;
    }
    return item.message !== undefined && MID_BATCH.has(item.message[0]);
  }
}

/**
 * Puts a {@link SessionQueue} in place of the query queue of a pglite-socket server, before it
 * starts (each connection's handler takes the server's queue when it is created).
 * @param server - a PGLiteSocketServer that has not started
 * @param queue - the queue to use
 * @throws Error when the installed pglite-socket no longer has the field this replaces
 */
export function installSessionQueue(server: object, queue: SessionQueue): void {
  const target = server as { queryQueue?: { enqueue?: unknown } };
  if (typeof target.queryQueue?.enqueue !== 'function') {
    throw new Error('@electric-sql/pglite-socket has no queryQueue to replace; re-check supervisor/session-queue.ts against this version');
  }
  (target as { queryQueue: unknown }).queryQueue = queue;
}
