import { Queue, Worker, type Job } from 'bullmq';
import type { DataSource } from 'typeorm';
import { EMBED_CHECK_JOB, PROGRESS_REPORT_JOB, QUEUE, REWRITE_JOB, SCORE_TEXT_JOB, SCRIPT_CHECK_JOB, SETTLE_PAYMENT_JOB, STRESS_TEST_JOB, TRAINING_EXPORT_JOB } from '../jobs';
import { loadConfig, type AppConfig } from '../shared/config';
import { CONTEXTUAL_TIMEOUT_MS } from '../shared/embed/contextual-evaluator';
import { createChatCompletions } from '../shared/llm/chat-completions';
import { createDataSource } from '../shared/db/create-data-source';
import { readDatabaseId } from '../shared/db/database-identity';
import { connectionErrorListener, createLogger, type Logger } from '../shared/logger';
import { createAuthorizationChainReader } from '../shared/payments/authorization-chain-state';
import { startNetworkConfigCache, type NetworkConfigCache } from '../shared/operators/network-config-cache';
import { createFacilitator } from '../shared/payments/facilitator-client';
import { createStripeClient } from '../shared/cards/stripe-client';
import { closeRedis, createRedis, redisOptionsFor } from '../shared/redis';
import { reportReadyToSupervisor } from '../shared/supervision';
import { createDispatcher } from './dispatch';
import { createExpireDuelsProcessor, EXPIRE_DUELS_JOB, EXPIRE_DUELS_SCHEDULER } from './duel/expire-duels.processor';
import { createEmbedSweepProcessor, EMBED_SWEEP_JOB, EMBED_SWEEP_SCHEDULER } from './maintenance/embed-sweep.processor';
import { createForeignJobGuard } from './foreign-job';
import {
  createHeartbeatProcessor,
  createRedemptionSweepProcessor,
  createSettlementReconcilerProcessor,
  MAINTENANCE_HEARTBEAT_JOB,
  MAINTENANCE_HEARTBEAT_SCHEDULER,
  MAINTENANCE_REDEMPTION_SWEEP_JOB,
  MAINTENANCE_REDEMPTION_SWEEP_SCHEDULER,
  MAINTENANCE_SETTLEMENT_RECONCILER_JOB,
  MAINTENANCE_SETTLEMENT_RECONCILER_SCHEDULER,
} from './maintenance/maintenance.processor';
import { CARD_RECONCILER_JOB, CARD_RECONCILER_SCHEDULER, CARD_RENEWALS_JOB, CARD_RENEWALS_SCHEDULER, createCardReconcilerProcessor, createCardRenewalsProcessor } from './maintenance/card-packs.processor';
import { createProofCardRefreshProcessor, PROOF_CARD_REFRESH_JOB, PROOF_CARD_REFRESH_SCHEDULER } from './maintenance/proof-card-refresh.processor';
import { createRoleplayExpiryProcessor, MAINTENANCE_ROLEPLAY_EXPIRY_JOB, MAINTENANCE_ROLEPLAY_EXPIRY_SCHEDULER } from './maintenance/roleplay-expiry.processor';
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

function logFinalFailure(log: Logger, queue: string) {
  return (job: Job | undefined, err: Error) => {
    // Log a failed job once, on its final attempt (earlier attempts are retried).
    const attempts = job?.opts.attempts ?? 1;
    if (job && job.attemptsMade < attempts && err.name !== 'UnrecoverableError') return;
    log.warn({ err, jobId: job?.id, queue, attempt: job?.attemptsMade }, 'job failed');
  };
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
  scoring.on('error', connectionErrorListener(log, { queue: QUEUE.scoring }, 'worker error'));
  scoring.on('failed', logFinalFailure(log, QUEUE.scoring));

  // The stress test runs on the scoring pool's threads. One job per thread at most: with the
  // scoring worker's jobs the pool never holds more waiting tasks than its bounded queue takes.
  const stress = new Worker(
    QUEUE.stress,
    createDispatcher(QUEUE.stress, {
      [STRESS_TEST_JOB]: createStressTestProcessor({ pool, log }),
    }, foreignJobs),
    leasedOptions(config.scoring.threads),
  );
  stress.on('error', connectionErrorListener(log, { queue: QUEUE.stress }, 'worker error'));
  stress.on('failed', logFinalFailure(log, QUEUE.stress));

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
  settlement.on('error', connectionErrorListener(log, { queue: QUEUE.settlement }, 'worker error'));
  settlement.on('failed', logFinalFailure(log, QUEUE.settlement));

  // Exports read the ledger (progress reports, training-dataset manifests): database work, not CPU.
  const exportsWorker = new Worker(
    QUEUE.exports,
    createDispatcher(QUEUE.exports, {
      [PROGRESS_REPORT_JOB]: createProgressReportProcessor({ dataSource, log }),
      [TRAINING_EXPORT_JOB]: createTrainingExportProcessor({ dataSource, log }),
    }, foreignJobs),
    leasedOptions(2),
  );
  exportsWorker.on('error', connectionErrorListener(log, { queue: QUEUE.exports }, 'worker error'));
  exportsWorker.on('failed', logFinalFailure(log, QUEUE.exports));

  const maintenanceQueue = new Queue(QUEUE.maintenance, { connection, prefix });
  maintenanceQueue.on('error', connectionErrorListener(log, { queue: QUEUE.maintenance }, 'queue error'));
  // Upserted at every start with fixed ids, so any number of workers registers each schedule once.
  // Completed runs kept: a few of each schedule (the count is per queue, over every schedule).
  const scheduled = { removeOnComplete: { count: 50 }, removeOnFail: { count: 50 } };
  await maintenanceQueue.upsertJobScheduler(
    MAINTENANCE_HEARTBEAT_SCHEDULER,
    { every: config.scoring.maintenanceEveryMs },
    { name: MAINTENANCE_HEARTBEAT_JOB, data: {}, opts: scheduled },
  );
  await maintenanceQueue.upsertJobScheduler(
    MAINTENANCE_REDEMPTION_SWEEP_SCHEDULER,
    { every: config.scoring.maintenanceEveryMs },
    { name: MAINTENANCE_REDEMPTION_SWEEP_JOB, data: {}, opts: scheduled },
  );
  await maintenanceQueue.upsertJobScheduler(
    MAINTENANCE_SETTLEMENT_RECONCILER_SCHEDULER,
    { every: config.scoring.maintenanceEveryMs },
    { name: MAINTENANCE_SETTLEMENT_RECONCILER_JOB, data: {}, opts: scheduled },
  );
  await maintenanceQueue.upsertJobScheduler(
    PROOF_CARD_REFRESH_SCHEDULER,
    { every: config.proofCards.refreshEveryMs },
    { name: PROOF_CARD_REFRESH_JOB, data: {}, opts: scheduled },
  );
  await maintenanceQueue.upsertJobScheduler(
    EXPIRE_DUELS_SCHEDULER,
    { every: config.scoring.maintenanceEveryMs },
    { name: EXPIRE_DUELS_JOB, data: {}, opts: scheduled },
  );
  await maintenanceQueue.upsertJobScheduler(
    MAINTENANCE_ROLEPLAY_EXPIRY_SCHEDULER,
    { every: config.scoring.maintenanceEveryMs },
    { name: MAINTENANCE_ROLEPLAY_EXPIRY_JOB, data: {}, opts: scheduled },
  );
  // Card renewals and the card reconciler run only where a card processor is configured.
  const stripe = createStripeClient(config.cards);
  const cardProcessors: Record<string, (job: Job) => Promise<unknown>> = {};
  if (stripe) {
    const cardDeps = { dataSource, stripe, log };
    cardProcessors[CARD_RENEWALS_JOB] = createCardRenewalsProcessor(cardDeps);
    cardProcessors[CARD_RECONCILER_JOB] = createCardReconcilerProcessor({ ...cardDeps, lookbackSeconds: config.cards.reconcileLookbackSeconds });
    await maintenanceQueue.upsertJobScheduler(CARD_RENEWALS_SCHEDULER, { every: config.cards.maintenanceEveryMs }, { name: CARD_RENEWALS_JOB, data: {}, opts: scheduled });
    await maintenanceQueue.upsertJobScheduler(CARD_RECONCILER_SCHEDULER, { every: config.cards.maintenanceEveryMs }, { name: CARD_RECONCILER_JOB, data: {}, opts: scheduled });
  } else {
    // Schedules left by an earlier configured start would emit jobs no worker here can run.
    await maintenanceQueue.removeJobScheduler(CARD_RENEWALS_SCHEDULER);
    await maintenanceQueue.removeJobScheduler(CARD_RECONCILER_SCHEDULER);
  }
  await maintenanceQueue.upsertJobScheduler(
    EMBED_SWEEP_SCHEDULER,
    { every: config.scoring.maintenanceEveryMs },
    { name: EMBED_SWEEP_JOB, data: {}, opts: scheduled },
  );
  const maintenance = new Worker(
    QUEUE.maintenance,
    createDispatcher(QUEUE.maintenance, {
      ...cardProcessors,
      [MAINTENANCE_HEARTBEAT_JOB]: createHeartbeatProcessor({ log, network }),
      [MAINTENANCE_REDEMPTION_SWEEP_JOB]: createRedemptionSweepProcessor({
        dataSource,
        olderThanSeconds: config.payments.abandonedRedemptionSeconds,
        log,
      }),
      [MAINTENANCE_SETTLEMENT_RECONCILER_JOB]: createSettlementReconcilerProcessor({
        dataSource,
        redis: feedRedis,
        queuePrefix: prefix,
        chain,
        staleAfterSeconds: config.payments.reconcileAfterSeconds,
        log,
      }),
      [PROOF_CARD_REFRESH_JOB]: createProofCardRefreshProcessor({ dataSource, windowDays: config.proofCards.windowDays, log }),
      [EXPIRE_DUELS_JOB]: createExpireDuelsProcessor({ dataSource, log }),
      [MAINTENANCE_ROLEPLAY_EXPIRY_JOB]: createRoleplayExpiryProcessor({ dataSource, log }),
      [EMBED_SWEEP_JOB]: createEmbedSweepProcessor({ dataSource, log }),
    }, foreignJobs),
    { connection, prefix, concurrency: 1 },
  );
  maintenance.on('error', connectionErrorListener(log, { queue: QUEUE.maintenance }, 'worker error'));
  maintenance.on('failed', logFinalFailure(log, QUEUE.maintenance));

  const metrics = createWorkerMetrics();
  for (const worker of [scoring, stress, settlement, exportsWorker, maintenance]) metrics.observe(worker);
  const { workerMetricsPort, workerMetricsHost } = config.operators;
  let metricsServer: MetricsServer | undefined;
  if (workerMetricsPort !== undefined) {
    metricsServer = await serveWorkerMetrics({ metrics, dataSource, log, host: workerMetricsHost, port: workerMetricsPort });
  }

  log.info({ threads: config.scoring.threads, concurrency: config.scoring.concurrency, queuePrefix: prefix, databaseId }, 'workers started');

  let closing: Promise<void> | undefined;
  return {
    network,
    metricsPort: metricsServer?.port,
    close() {
      // Order (style.md §9): stop taking jobs, then the pool, then the database, then Redis.
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
