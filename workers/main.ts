import { Worker } from 'bullmq';
import type { DataSource } from 'typeorm';
import { EMBED_CHECK_JOB, JOB_PRODUCTS, PROGRESS_REPORT_JOB, QUEUE, REWRITE_JOB, SCORE_TEXT_JOB, SCRIPT_CHECK_JOB, SETTLE_PAYMENT_JOB, STRESS_TEST_JOB, TRAINING_EXPORT_JOB } from '../jobs';
import { loadConfig, type AppConfig } from '../shared/config';
import { CONTEXTUAL_TIMEOUT_MS } from '../shared/embed/contextual-evaluator';
import { createChatCompletions } from '../shared/llm/chat-completions';
import { createDataSource } from '../shared/db/create-data-source';
import { readDatabaseId } from '../shared/db/database-identity';
import { createLogger, type Logger } from '../shared/logger';
import { createAuthorizationChainReader } from '../shared/payments/authorization-chain-state';
import { startNetworkConfigCache, type NetworkConfigCache } from '../shared/operators/network-config-cache';
import { createFacilitator } from '../shared/payments/facilitator-client';
import { closeRedis, createRedis, redisOptionsFor } from '../shared/redis';
import { reportReadyToSupervisor } from '../shared/supervision';
import { createDispatcher } from './dispatch';
import { watchWorker } from './worker-events';
import { createForeignJobGuard } from './foreign-job';
import { startMaintenanceWorker } from './maintenance/maintenance-worker';
import { serveWorkerMetrics, type MetricsServer } from './metrics/metrics-server';
import { createWorkerMetrics } from './metrics/worker-metrics';
import { createScoringPool } from './pool';
import { createScoreTextProcessor } from './scoring/score-text.processor';
import { createRewriteProcessor } from './scoring/rewrite.processor';
import { createScriptCheckProcessor } from './scoring/script-check.processor';
import { createEmbedCheckProcessor } from './scoring/embed-check.processor';
import { createSettlePaymentProcessor } from './payments/settle-payment.processor';
import { createStressTestProcessor } from './stress/stress-test.processor';
import { createProgressReportProcessor } from './exports/progress-report.processor';
import { createTrainingExportProcessor } from './exports/training-export.processor';

/** A running worker process: its BullMQ workers, thread pool and DataSource. */
export interface WorkerRuntime {
  /** This process's view of the runtime network configuration, kept current like the web's. */
  network: NetworkConfigCache;
  /** The port of this process's `/metrics`, when `WORKER_METRICS_PORT` is set. */
  metricsPort?: number;
  /** Stops taking jobs, lets active ones finish, then releases the pool, the database and Redis. */
  close(): Promise<void>;
}

async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts every worker of this process: the `scoring` worker over a Piscina pool, and the
 * `settlement` worker, and the `maintenance` worker with its job scheduler.
 * @param config - the loaded config
 * @param log - root logger of the process
 * @returns the runtime, to close on shutdown
 */
export async function startWorkers(config: AppConfig, log: Logger): Promise<WorkerRuntime> {
  const dataSource: DataSource = createDataSource(config.db, 'worker');
  await dataSource.initialize();
  const prefix = config.redis.queuePrefix;
  const databaseId = await readDatabaseId(dataSource);
  // Jobs stamped by a web of another database go back to the queue, whichever queue they are on.
  const foreignJobs = createForeignJobGuard({ databaseId, queuePrefix: prefix, log });
  const pool = createScoringPool(config.scoring);
  const connection = { url: config.redis.url, ...redisOptionsFor('worker') };
  // A killed worker's job is taken over once its lock lapses, and at most once more after that.
  const leasedOptions = (concurrency: number) => ({
    connection,
    prefix,
    concurrency,
    lockDuration: config.scoring.lockDurationMs,
    stalledInterval: config.scoring.stalledIntervalMs,
    maxStalledCount: 1,
  });

  const scoring = new Worker(
    QUEUE.scoring,
    createDispatcher(QUEUE.scoring, {
      [SCORE_TEXT_JOB]: createScoreTextProcessor({ pool, log }),
      [REWRITE_JOB]: createRewriteProcessor({ pool, log }),
      [SCRIPT_CHECK_JOB]: createScriptCheckProcessor({ pool, log }),
      [EMBED_CHECK_JOB]: createEmbedCheckProcessor({
        pool,
        chat: config.llm.provider ? createChatCompletions(config.llm.provider, CONTEXTUAL_TIMEOUT_MS) : undefined,
        log,
      }),
    }, foreignJobs),
    leasedOptions(config.scoring.concurrency),
  );
  watchWorker(scoring, log, QUEUE.scoring);

  // The stress test runs on the scoring pool's threads. One job per thread at most: with the
  // scoring worker's jobs the pool never holds more waiting tasks than its bounded queue takes.
  const stress = new Worker(
    QUEUE.stress,
    createDispatcher(QUEUE.stress, {
      [STRESS_TEST_JOB]: createStressTestProcessor({ pool, log }),
    }, foreignJobs),
    leasedOptions(config.scoring.threads),
  );
  watchWorker(stress, log, QUEUE.stress);

  const feedRedis = createRedis(config.redis.url, 'producer', log, 'worker-feed');
  // The same cache module as the web: a change is applied here on its announcement, within a second.
  const networkRedis = createRedis(config.redis.url, 'worker', log, 'worker-network-config');
  const network = await startNetworkConfigCache({ dataSource, subscriber: networkRedis, publisher: feedRedis, queuePrefix: prefix, role: 'worker', log });
  // Unknown settlement outcomes are read from the chain; without EVM_RPC_URL they stay pending.
  const chain = config.payments.evmRpcUrl ? createAuthorizationChainReader(config.payments.evmRpcUrl) : undefined;
  const settlement = new Worker(
    QUEUE.settlement,
    createDispatcher(QUEUE.settlement, {
      [SETTLE_PAYMENT_JOB]: createSettlePaymentProcessor({
        dataSource,
        facilitator: createFacilitator(config.payments),
        chain,
        redis: feedRedis,
        queuePrefix: prefix,
        log,
      }),
    }, foreignJobs),
    // Settlement waits on the facilitator and the chain, not on this CPU.
    leasedOptions(config.payments.settlementConcurrency),
  );
  watchWorker(settlement, log, QUEUE.settlement);

  // Exports read the ledger (progress reports, training-dataset manifests): database work, not CPU.
  const exportsWorker = new Worker(
    QUEUE.exports,
    createDispatcher(QUEUE.exports, {
      [PROGRESS_REPORT_JOB]: createProgressReportProcessor({ dataSource, log }),
      [TRAINING_EXPORT_JOB]: createTrainingExportProcessor({ dataSource, log }),
    }, foreignJobs),
    leasedOptions(2),
  );
  watchWorker(exportsWorker, log, QUEUE.exports);

  const { worker: maintenance, queue: maintenanceQueue } = await startMaintenanceWorker({
    config,
    dataSource,
    feedRedis,
    network,
    chain,
    connection,
    foreignJobs,
    log,
  });

  const metrics = createWorkerMetrics();
  for (const worker of [scoring, stress, settlement, exportsWorker, maintenance]) metrics.observe(worker);
  const { workerMetricsPort, workerMetricsHost } = config.operators;
  let metricsServer: MetricsServer | undefined;
  if (workerMetricsPort !== undefined) {
    metricsServer = await serveWorkerMetrics({ metrics, dataSource, log, host: workerMetricsHost, port: workerMetricsPort });
  }

  const serves = [...new Set(Object.values(JOB_PRODUCTS).flat())];
  log.info({ threads: config.scoring.threads, concurrency: config.scoring.concurrency, queuePrefix: prefix, databaseId, serves }, 'workers started');

  let closing: Promise<void> | undefined;
  return {
    network,
    metricsPort: metricsServer?.port,
    close() {
      // Order: stop taking jobs, then the pool, then the database, then Redis.
      // BullMQ's close waits for Redis; while Redis is down it would wait forever, so each BullMQ
      // step gets a deadline and the rest of the shutdown goes on regardless.
      closing ??= (async () => {
        try {
          await metricsServer?.close();
          const closed = await within(Promise.all([scoring.close(), settlement.close(), maintenance.close(), stress.close(), exportsWorker.close()]), config.shutdownGraceMs);
          if (!closed) log.warn({ graceMs: config.shutdownGraceMs }, 'workers did not close in time');
        } finally {
          try {
            await pool.close();
          } finally {
            try {
              // Before the database and Redis go: no re-read may start on a closed DataSource.
              await network.close();
              await dataSource.destroy();
            } finally {
              if (!(await within(maintenanceQueue.close(), 2_000))) log.warn('maintenance queue did not close in time');
              await closeRedis(networkRedis);
              await closeRedis(feedRedis);
            }
          }
        }
      })();
      return closing;
    },
  };
}

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const log = createLogger(config, 'worker');
  const runtime = await startWorkers(config, log);
  let stopping = false;
  const stop = (signal: NodeJS.Signals | 'disconnect') => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'worker shutting down');
    // Last resort if Redis never lets go (BullMQ keeps reconnecting); unref'd, so a clean shutdown exits before it.
    setTimeout(() => {
      log.error('worker shutdown timed out');
      process.exit(1);
    }, config.shutdownGraceMs + 5_000).unref();
    runtime.close().then(
      () => log.info('worker stopped'),
      (err: unknown) => {
        log.error({ err }, 'worker shutdown failed');
        process.exitCode = 1;
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  reportReadyToSupervisor({ type: 'ready', role: 'worker' }, () => stop('disconnect'));
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`worker failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
