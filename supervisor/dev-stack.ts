import { spawn } from 'node:child_process';
import path from 'node:path';
import { startLocalCardProcessor, type LocalCardProcessor } from '../card-processor';
import { startLocalFacilitator, type LocalFacilitator } from '../facilitator';
import type { AppConfig } from '../shared/config';
import { createDataSource } from '../shared/db/create-data-source';
import type { Logger } from '../shared/logger';
import { removeStackDatabaseUrl, writeStackDatabaseUrl } from '../shared/stack-files';
import type { ReadyMessage } from '../shared/supervision';
import { resolveThreadFile } from '../shared/thread-file';
import { lockDataDir } from './data-dir-lock';
import { devOutboundEnv } from './dev-outbound';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { killNow, manageProcess, type ExitInfo, type ManagedProcess } from './managed-process';
import { stackQueuePrefix } from './queue-prefix';
import { chooseRedis, type RedisChoice, type RedisChoiceOptions } from './redis-choice';
import { CrashHistory, DEFAULT_RESTART_POLICY, type RestartPolicy } from './restart-policy';
import { StartupError } from './startup-error';

/** The test mnemonic's index of the embedded chain's first funded payer (0 signs settlements, 1 is the treasury). */
const FIRST_PAYER_INDEX = 2;

/** Pool size of web and worker on the embedded database, unless DATABASE_POOL_MAX says otherwise. */
export const EMBEDDED_POOL_MAX = 3;

/** What the stack needs; `main.ts` builds it from the environment. */
export interface DevStackOptions {
  /** The environment web and worker inherit (DATABASE_URL, REDIS_URL and the pool size are set on top). */
  env: Record<string, string | undefined>;
  /** The configuration loaded from `env` (validated before anything starts). */
  config: AppConfig;
  /** Where the embedded database and a private Redis keep their files. */
  dataDir: string;
  /** Folder of the repository (children start here). */
  rootDir: string;
  /** Where to look for Redis, and which binary to start when none answers. */
  redis: Pick<RedisChoiceOptions, 'probe' | 'binary' | 'searchPath'>;
  log: Logger;
  /**
   * When a crashed web or worker is restarted, and how many crashes stop the stack
   * (default {@link DEFAULT_RESTART_POLICY}).
   */
  restart?: RestartPolicy;
  /**
   * Called once when the stack cannot go on: a private Redis exited, or web or worker crashed
   * too often (see {@link RestartPolicy}). The reason is one line.
   */
  onFailure: (reason: string) => void;
}

/** The running stack, as `npm start` reports it. */
export interface DevStackInfo {
  /** The API's base URL. */
  url: string;
  database: 'embedded' | 'configured';
  redis: RedisChoice['source'];
  redisUrl: string;
  /** The BullMQ key prefix of web and worker (QUEUE_PREFIX, else derived from the data folder). */
  queuePrefix: string;
  /**
   * The embedded facilitator and chain, when X402_FACILITATOR_URL was not set: the funded payers
   * (accounts `firstPayerIndex` and up of the public test mnemonic, in order) hold test USDC.
   */
  payments:
    | { facilitator: 'configured' }
    | { facilitator: 'embedded'; network: string; asset: string; firstPayerIndex: number; payers: Array<{ address: string; privateKey: string }> };
  /** The local development card processor, when STRIPE_SECRET_KEY was not set. */
  cards: { processor: 'configured' } | { processor: 'embedded'; url: string };
}

type Role = 'web' | 'worker';

interface RoleProcess {
  proc: ManagedProcess;
  ready: Promise<ReadyMessage>;
}

/** Entry of each role, relative to this file (see `#spawnRole`). */
const ROLE_ENTRY: Record<Role, string> = { web: '../api/server', worker: '../workers/main' };

class StopRequested extends Error {
  constructor() {
    super('stopped during startup');
    this.name = 'StopRequested';
  }
}

function describeExit(info: ExitInfo): string {
  return info.signal ? `signal ${info.signal}` : `code ${String(info.code)}`;
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

function apiUrl(host: string | undefined, port: number): string {
  const shown = !host || host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

/**
 * The development stack of `npm start`: an embedded PostgreSQL (PGlite over pglite-socket) unless
 * DATABASE_URL is set, a Redis (REDIS_URL, else 127.0.0.1:6379, else a private redis-server), the
 * x402 facilitator on an in-process development chain unless X402_FACILITATOR_URL is set, the
 * local development card processor unless STRIPE_SECRET_KEY is set, the migrations, then the `web` and `worker` processes of the Procfile as child processes.
 *
 * Start order: Redis, then the database and the chain, migrations, worker and web. Stop order: web (in-flight requests
 * finish), worker (active jobs finish), the private Redis, the database; each step has a deadline.
 *
 * A web or worker that exits on its own is restarted with exponential backoff, with the same
 * environment (the web on the port it first bound), while the database, Redis and the embedded
 * chain (this process's) stay up; too many crashes in a row stop the stack ({@link RestartPolicy}).
 */
export class DevStack {
  readonly #options: DevStackOptions;
  #pg?: EmbeddedPostgres;
  #redis?: RedisChoice;
  #facilitator?: LocalFacilitator;
  #cards?: LocalCardProcessor;
  #roles: Partial<Record<Role, RoleProcess>> = {};
  readonly #crashes: Record<Role, CrashHistory>;
  /** Roles that crashed and wait for their restart. */
  readonly #restarting = new Map<Role, NodeJS.Timeout>();
  #unlock?: () => void;
  #starting?: Promise<DevStackInfo>;
  #stopRequested = false;
  #onStopRequest: Array<() => void> = [];
  #stopped?: Promise<boolean>;
  #partsStopped?: Promise<boolean>;

  /** @param options - see {@link DevStackOptions} */
  constructor(options: DevStackOptions) {
    this.#options = options;
    const policy = options.restart ?? DEFAULT_RESTART_POLICY;
    this.#crashes = { web: new CrashHistory(policy), worker: new CrashHistory(policy) };
  }

  /**
   * Starts everything and waits until web and worker report ready.
   * @returns where the API listens and what it runs on
   * @throws StartupError with a one-line reason when a part cannot start (what started is stopped)
   */
  start(): Promise<DevStackInfo> {
    this.#starting ??= this.#start().catch(async (err: unknown) => {
      await this.#stopParts();
      throw err instanceof StopRequested ? new StartupError('stopped before the stack was up') : err;
    });
    return this.#starting;
  }

  /**
   * Stops everything in order (also while starting: the current step finishes first).
   * @returns true when every part stopped on its own within its deadline
   */
  stop(): Promise<boolean> {
    this.#stopped ??= (async () => {
      this.#stopRequested = true;
      for (const wake of this.#onStopRequest.splice(0)) wake();
      await this.#starting?.catch(() => undefined);
      return this.#stopParts();
    })();
    return this.#stopped;
  }

  /** Kills every child process at once (a second Ctrl-C). The database is left to crash recovery. */
  kill(): void {
    for (const proc of [this.#roles.web?.proc, this.#roles.worker?.proc, this.#redis?.source === 'private' ? this.#redis.process : undefined]) {
      if (proc) killNow(proc);
    }
  }

  async #start(): Promise<DevStackInfo> {
    const { config, env, log } = this.#options;
    const configuredDb = config.db.url;
    const dataDir = this.#options.dataDir;

    if (!configuredDb) this.#unlock = lockDataDir(dataDir);
    const configuredFacilitator = env.X402_FACILITATOR_URL?.trim() || undefined;
    // Redis first and alone: its probe of 127.0.0.1:6379 has a 1 s deadline, and PGlite's first
    // start (initdb) and the chain's start block this event loop for seconds, which made a healthy
    // local Redis look absent (a private one was started instead).
    this.#redis = await chooseRedis({
      ...this.#options.redis,
      configuredUrl: env.REDIS_URL?.trim() || undefined,
      dataDir: path.join(dataDir, 'redis'),
      log,
    });
    this.#checkStop();
    const [pg, facilitator] = await Promise.allSettled([
      configuredDb
        ? Promise.resolve(undefined)
        : startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pglite'), maxConnections: 2 * this.#poolMax() + 4, log }),
      // Payments settle on an in-process development chain unless a real facilitator is configured.
      configuredFacilitator ? Promise.resolve(undefined) : startLocalFacilitator({ logger: log.child({ role: 'facilitator' }) }),
    ]);
    if (pg.status === 'fulfilled') this.#pg = pg.value;
    if (facilitator.status === 'fulfilled') this.#facilitator = facilitator.value;
    if (facilitator.status === 'rejected') {
      throw new StartupError(`The embedded payment facilitator did not start: ${(facilitator.reason as Error).message}`, facilitator.reason);
    }
    if (pg.status === 'rejected') throw new StartupError(`The embedded database did not start: ${(pg.reason as Error).message}`, pg.reason);
    this.#checkStop();
    // Card payments go to a local development processor unless a Stripe key is configured.
    if (!env.STRIPE_SECRET_KEY?.trim()) {
      try {
        this.#cards = await startLocalCardProcessor({ logger: log.child({ role: 'card-processor' }) });
      } catch (err) {
        throw new StartupError(`The local card processor did not start: ${(err as Error).message}`, err);
      }
    }

    const databaseUrl = this.#pg?.url ?? (configuredDb as string);
    const redisChoice = this.#redis as RedisChoice;
    log.info({ database: this.#pg ? 'embedded' : 'configured', redis: redisChoice.source, redisUrl: withoutPassword(redisChoice.url) }, 'dependencies ready');
    await this.#migrate(databaseUrl, this.#pg ? false : config.db.ssl);
    this.#checkStop();
    // The operator tools find the embedded database here (a configured one is in DATABASE_URL already).
    if (this.#pg) writeStackDatabaseUrl(dataDir, databaseUrl);

    const queuePrefix = stackQueuePrefix(env.QUEUE_PREFIX, dataDir);
    const childEnv: Record<string, string | undefined> = { ...env, ...devOutboundEnv(env), DATABASE_URL: databaseUrl, REDIS_URL: redisChoice.url, QUEUE_PREFIX: queuePrefix };
    if (this.#pg) {
      childEnv.DATABASE_POOL_MAX = String(this.#poolMax());
      // PGlite has one backend session for every connection: named statements would collide.
      childEnv.DATABASE_PREPARED_STATEMENTS = 'false';
    }
    const local = this.#facilitator;
    if (local) {
      // The embedded chain has its own token and accounts: the whole USDC rail points at it.
      Object.assign(childEnv, {
        X402_FACILITATOR_URL: local.url,
        X402_NETWORK: local.network,
        USDC_ASSET_ADDRESS: local.asset,
        USDC_ASSET_NAME: local.assetName,
        USDC_ASSET_VERSION: local.assetVersion,
        TREASURY_EVM_ADDRESS: local.treasury,
        EVM_RPC_URL: local.rpcUrl,
      });
    }
    const cards = this.#cards;
    if (cards) {
      Object.assign(childEnv, { STRIPE_SECRET_KEY: cards.secretKey, STRIPE_WEBHOOK_SECRET: cards.webhookSecret, STRIPE_API_URL: cards.url });
    }
    const worker = (this.#roles.worker = this.#spawnRole('worker', childEnv));
    const web = (this.#roles.web = this.#spawnRole('web', childEnv));
    const [webReady] = await this.#unlessStopped(Promise.all([web.ready, worker.ready]));

    const port = webReady.port ?? config.http.port;
    // The web's port is known only now: events wait in the processor until then.
    cards?.setWebhookUrl(`http://127.0.0.1:${port}/api/card/webhook`);
    this.#supervise('worker', worker, childEnv);
    // A restarted web binds the port it has now (PORT=0 picked one), so the printed URL stays right.
    this.#supervise('web', web, { ...childEnv, PORT: String(port) });
    if (redisChoice.source === 'private') {
      void redisChoice.process.exited.then((info) => {
        if (!this.#stopRequested) this.#options.onFailure(`the private redis-server exited unexpectedly (${describeExit(info)}); the queues are gone`);
      });
    }
    return {
      url: apiUrl(config.http.host, port),
      database: this.#pg ? 'embedded' : 'configured',
      redis: redisChoice.source,
      redisUrl: withoutPassword(redisChoice.url),
      queuePrefix,
      payments: local
        ? { facilitator: 'embedded', network: local.network, asset: local.asset, firstPayerIndex: FIRST_PAYER_INDEX, payers: local.payers.map((p) => ({ ...p })) }
        : { facilitator: 'configured' },
      cards: cards ? { processor: 'embedded', url: cards.url } : { processor: 'configured' },
    };
  }

  #poolMax(): number {
    // Every pooled connection of web and worker shares PGlite's one session: more only queue.
    return this.#options.env.DATABASE_POOL_MAX?.trim() ? this.#options.config.db.poolMax : EMBEDDED_POOL_MAX;
  }

  #checkStop(): void {
    if (this.#stopRequested) throw new StopRequested();
  }

  #unlessStopped<T>(work: Promise<T>): Promise<T> {
    if (this.#stopRequested) return Promise.reject(new StopRequested());
    return new Promise<T>((resolve, reject) => {
      this.#onStopRequest.push(() => reject(new StopRequested()));
      work.then(resolve, reject);
    });
  }

  /** The migrations of the Procfile's `release` line (same DataSource, same files), run in-process. */
  async #migrate(url: string, ssl: boolean): Promise<void> {
    const { log } = this.#options;
    const dataSource = createDataSource({ url, poolMax: 1, ssl }, 'migrate');
    try {
      await dataSource.initialize();
    } catch (err) {
      throw new StartupError(`Cannot connect to PostgreSQL at ${withoutPassword(url)}: ${(err as Error).message}`, err);
    }
    try {
      const applied = await dataSource.runMigrations();
      log.info({ applied: applied.map((m) => m.name) }, 'migrations up to date');
    } catch (err) {
      throw new StartupError(`Migrations failed: ${(err as Error).message}`, err);
    } finally {
      await dataSource.destroy();
    }
  }

  /** Restarts a role whenever its process exits on its own, until the stack stops or gives up. */
  #supervise(role: Role, current: RoleProcess, env: Record<string, string | undefined>): void {
    const { log } = this.#options;
    void current.proc.exited.then((info) => {
      if (this.#stopRequested) return;
      const decision = this.#crashes[role].record(Date.now());
      if (!decision.restart) {
        const windowS = Math.round((this.#options.restart ?? DEFAULT_RESTART_POLICY).windowMs / 1000);
        log.error({ role, pid: current.proc.pid, exit: describeExit(info), crashes: decision.crashes }, 'process crashed too often');
        this.#options.onFailure(`${role} crashed ${decision.crashes} times within ${windowS} s (last exit: ${describeExit(info)}); its output is above`);
        return;
      }
      log.warn({ role, pid: current.proc.pid, exit: describeExit(info), crashes: decision.crashes, restartInMs: decision.delayMs }, 'process crashed; restarting');
      const timer = setTimeout(() => {
        this.#restarting.delete(role);
        if (this.#stopRequested) return;
        const next = (this.#roles[role] = this.#spawnRole(role, env));
        this.#supervise(role, next, env);
        next.ready.then(
          () => log.info({ role, pid: next.proc.pid }, 'process restarted'),
          // An exit before ready is a crash like any other: #supervise handles it.
          () => undefined,
        );
      }, decision.delayMs);
      this.#restarting.set(role, timer);
    });
  }

  #spawnRole(role: Role, env: Record<string, string | undefined>): RoleProcess {
    const { log, rootDir } = this.#options;
    // dist/supervisor -> dist/<role>/*.js; under tsx (tests) -> the .ts sources with the tsx loader.
    const { filename, execArgv } = resolveThreadFile(__filename, ROLE_ENTRY[role]);
    const child = spawn(process.execPath, [...execArgv, filename], {
      cwd: rootDir,
      env,
      // Own process group: a terminal's Ctrl-C reaches only the supervisor, which stops the
      // children in order. The IPC channel carries the ready message.
      detached: true,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('error', (err) => log.error({ err, role }, 'process error'));
    const proc = manageProcess(role, child);
    const ready = new Promise<ReadyMessage>((resolve, reject) => {
      child.on('message', (message: Partial<ReadyMessage>) => {
        if (message?.type === 'ready' && message.role === role) resolve(message as ReadyMessage);
      });
      void proc.exited.then((info) => reject(new StartupError(`${role} exited (${describeExit(info)}) before it was ready; its output is above`)));
    });
    // Observed by start(); this keeps a later rejection (after start gave up) from going unhandled.
    ready.catch(() => undefined);
    log.info({ role, pid: proc.pid }, 'process started');
    return { proc, ready };
  }

  /** Stops what was started, in order, once. */
  #stopParts(): Promise<boolean> {
    this.#partsStopped ??= this.#stopInOrder();
    return this.#partsStopped;
  }

  async #stopInOrder(): Promise<boolean> {
    const { config, log } = this.#options;
    this.#stopRequested = true;
    let clean = true;
    const step = async (name: string, work: () => Promise<boolean>) => {
      try {
        if (!(await work())) clean = false;
      } catch (err) {
        clean = false;
        log.error({ err, part: name }, 'stop failed');
      }
    };
    // Children get the grace period their own shutdown uses, plus time to release their pools.
    const childDeadline = config.shutdownGraceMs + 6_000;
    for (const name of ['web', 'worker'] as const) {
      const role = this.#roles[name];
      const pendingRestart = this.#restarting.get(name);
      if (pendingRestart) {
        // It crashed and waits for its restart: nothing runs to stop.
        clearTimeout(pendingRestart);
        this.#restarting.delete(name);
        log.info({ role: name }, 'restart cancelled');
        continue;
      }
      if (!role) continue;
      await step(role.proc.role, async () => {
        const outcome = await role.proc.stop(childDeadline);
        log.info({ role: role.proc.role, code: outcome.code, signal: outcome.signal, forced: outcome.forced }, 'process stopped');
        // A child stopped before it installed its handlers dies of the SIGTERM itself: still clean.
        return !outcome.forced && (outcome.code === 0 || outcome.signal === 'SIGTERM');
      });
    }
    const facilitator = this.#facilitator;
    if (facilitator) {
      await step('facilitator', async () => {
        await facilitator.close();
        log.info('embedded facilitator stopped');
        return true;
      });
    }
    const cardProcessor = this.#cards;
    if (cardProcessor) {
      await step('card-processor', async () => {
        await cardProcessor.close();
        log.info('local card processor stopped');
        return true;
      });
    }
    const redis = this.#redis;
    if (redis?.source === 'private') {
      await step('redis', async () => {
        const outcome = await redis.process.stop(5_000);
        log.info({ role: 'redis', code: outcome.code, signal: outcome.signal, forced: outcome.forced }, 'process stopped');
        return !outcome.forced;
      });
    }
    const pg = this.#pg;
    if (pg) {
      removeStackDatabaseUrl(this.#options.dataDir);
      await step('postgres', async () => {
        await pg.stop(5_000);
        log.info('embedded postgres stopped');
        return true;
      });
    }
    this.#unlock?.();
    return clean;
  }
}
