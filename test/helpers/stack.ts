import supertest from 'supertest';
import type { Agent } from 'supertest';
import { createApp } from '../../api/app';
import type { PaymentMethod } from '../../api/payments/methods';
import type { ApiDeps } from '../../api/routes';
import { createDeps } from '../../api/server';
import type { DestinationStream } from 'pino';
import type { AppConfig } from '../../shared/config';
import { createLogger, type Logger } from '../../shared/logger';
import { startWorkers, type WorkerRuntime } from '../../workers/main';
import { testConfig } from './config';
import { ensureTestDatabase, truncateAll } from './db';
import { queuePrefix } from './redis';

/** An API wired to real Redis and PostgreSQL, with (optionally) an in-process worker. */
export interface TestStack {
  config: AppConfig;
  deps: ApiDeps;
  /** supertest over the app's callback (no port). */
  http: ReturnType<typeof supertest>;
  worker?: WorkerRuntime;
  truncate(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a stack on the run's test database and a suite-specific queue prefix.
 * @param suite - suite name (the queue prefix)
 * @param options - `worker: false` for an API with no worker; env-style `env` overrides; a logger
 *   (default: the config's level to `logs`, or stdout); `logs` receives the web's and worker's log
 *   lines (LOG_LEVEL in `env` decides which); `paymentMethods` replaces the ways to pay the app takes
 * @returns the stack; close it in `after`
 */
export async function startTestStack(
  suite: string,
  options: { worker?: boolean; env?: Record<string, string>; logger?: Logger; logs?: DestinationStream; paymentMethods?: readonly PaymentMethod[] } = {},
): Promise<TestStack> {
  const url = await ensureTestDatabase();
  const config = testConfig({ DATABASE_URL: url, QUEUE_PREFIX: queuePrefix(suite), ...options.env });
  const logger = options.logger ?? createLogger(config, 'test', options.logs);
  const created = await createDeps(config, logger);
  const deps: ApiDeps = options.paymentMethods ? { ...created.deps, paymentMethods: options.paymentMethods } : created.deps;
  const closeDeps = created.close;
  let worker: WorkerRuntime | undefined;
  try {
    if (options.worker !== false) worker = await startWorkers(config, logger);
  } catch (err) {
    await closeDeps();
    throw err;
  }
  const app = createApp(deps);
  return {
    config,
    deps,
    http: supertest(app.callback()),
    worker,
    truncate: () => truncateAll((sql) => deps.dataSource.query(sql)),
    async close() {
      try {
        await worker?.close();
      } finally {
        await closeDeps();
      }
    },
  };
}

/** A supertest agent type, for helpers. */
export type Http = ReturnType<typeof supertest> | Agent;
