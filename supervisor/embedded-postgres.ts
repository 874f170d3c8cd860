import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import type { Logger } from '../shared/logger';
import { installSessionQueue, SessionQueue } from './session-queue';

/** A PGlite database served to the ordinary `pg` driver on a loopback port. */
export interface EmbeddedPostgres {
  /** postgres:// URL for DATABASE_URL. */
  url: string;
  port: number;
  /**
   * Stops accepting connections, drops the open ones (rolling back what they left open), then
   * closes the database so its files are consistent.
   * @param deadlineMs - how long the database gets to close
   */
  stop(deadlineMs: number): Promise<void>;
}

/** What {@link startEmbeddedPostgres} needs. */
export interface EmbeddedPostgresOptions {
  /** Folder of the database files (created and initialized when missing); `memory://` for none. */
  dataDir: string;
  /** Client connections served at once (pglite-socket `maxConnections`); more are refused. */
  maxConnections: number;
  log: Logger;
}

function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Opens the database in `dataDir`, creating it first when the folder does not exist. A new
 * database is made in a scratch folder and renamed into place once complete, so a first start
 * that is interrupted (initdb takes seconds) never leaves a half-made database behind.
 * @param dataDir - the database folder
 * @param log - logger
 * @returns the open database
 */
async function openDatabase(dataDir: string, log: Logger): Promise<PGlite> {
  if (dataDir.startsWith('memory://')) return PGlite.create();
  const parent = path.dirname(dataDir);
  mkdirSync(parent, { recursive: true });
  const scratchPrefix = `${path.basename(dataDir)}.creating-`;
  // Left by an interrupted first start (the caller holds the data folder's lock).
  for (const entry of readdirSync(parent)) {
    if (entry.startsWith(scratchPrefix)) rmSync(path.join(parent, entry), { recursive: true, force: true });
  }
  if (!existsSync(dataDir) || readdirSync(dataDir).length === 0) {
    rmSync(dataDir, { recursive: true, force: true });
    log.info({ dataDir }, 'creating the embedded database (first start only)');
    const scratch = path.join(parent, `${scratchPrefix}${process.pid}`);
    const fresh = await PGlite.create(scratch);
    await fresh.close();
    renameSync(scratch, dataDir);
  }
  return PGlite.create(dataDir);
}

/**
 * Opens (or creates) a PGlite database and serves it on 127.0.0.1 on a free port with
 * pglite-socket. PGlite has one backend session; the server multiplexes up to `maxConnections`
 * clients onto it through a {@link SessionQueue}, so keep the clients' pools small.
 * @param options - see {@link EmbeddedPostgresOptions}
 * @returns the running server
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const { dataDir, maxConnections, log } = options;
  const started = Date.now();
  let db: PGlite;
  try {
    db = await openDatabase(dataDir, log);
  } catch (err) {
    throw new Error(`${(err as Error).message} (database folder: ${dataDir})`, { cause: err });
  }
  const queue = new SessionQueue(db);
  let server: PGLiteSocketServer;
  try {
    server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
    installSessionQueue(server, queue);
    await server.start();
  } catch (err) {
    await db.close();
    throw err;
  }
  const port = Number(server.getServerConn().split(':').pop());
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  log.info({ url, port, dataDir, maxConnections, ms: Date.now() - started }, 'embedded postgres started');

  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    stop(deadlineMs) {
      stopping ??= (async () => {
        try {
          await within(server.stop(), deadlineMs, 'closing the postgres socket');
          // Clients that were cut off may still have their clean-up (ROLLBACK) in the queue.
          await within(queue.whenIdle(), deadlineMs, 'finishing queued queries');
        } finally {
          await within(db.close(), deadlineMs, 'closing the embedded database');
        }
      })();
      return stopping;
    },
  };
}
