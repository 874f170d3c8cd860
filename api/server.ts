import { createServer, type RequestListener, type Server } from 'node:http';
import { bindQueueEvents, closeQueueEvents, createQueue, createQueueEvents, QUEUE } from '../jobs';
import { loadConfig, publicOriginProblem, type AppConfig } from '../shared/config';
import { createDataSource } from '../shared/db/create-data-source';
import { readDatabaseId } from '../shared/db/database-identity';
import { connectionErrorListener, createLogger, type Logger } from '../shared/logger';
import { startNetworkConfigCache } from '../shared/operators/network-config-cache';
import { createFacilitator } from '../shared/payments/facilitator-client';
import { PAYMENT_METHODS, secretHeaderNames } from './payments/methods';
import { closeRedis, createRedis } from '../shared/redis';
import { loadLanguageDetector } from '../shared/scoring';
import { reportReadyToSupervisor } from '../shared/supervision';
import { createApp } from './app';
import { createCapacityRunner } from './health/capacity';
import { createOutboundGuard, DEFAULT_OUTBOUND_POLICY } from '../shared/http/outbound-guard';
import { createMetrics } from './http/metrics';
import { createAdmissionLimit } from './http/admission-limit';
import { createPaymentEvidence } from './http/payment-evidence';
import type { ApiDeps } from './routes';
import { createFeedHub } from './feed/feed-hub';
import { createCorpusScoreWriter } from './free-score/corpus-scores';
import { createStressQueue } from './stress-test/stress-queue';

/** A running API process. */
export interface WebRuntime {
  server: Server;
  /** The port actually bound (useful with PORT=0). */
  port: number;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then closes every handle. */
  close(): Promise<void>;
}

/**
 * Builds the API's dependencies: DataSource, the producer Redis connection, the `scoring` and
 * `settlement` queues, their QueueEvents (ready before listening, so no result event is missed),
 * the facilitator client and the capacity runner.
 * @param config - the loaded config
 * @param logger - root logger
 * @returns the dependencies, and a function that closes them in order
 */
export async function createDeps(config: AppConfig, logger: Logger): Promise<{ deps: ApiDeps; close: () => Promise<void> }> {
  const dataSource = createDataSource(config.db, 'web');
  await dataSource.initialize();
  // Every job this web enqueues names its database, so a worker of another database puts it back.
  const owner = { databaseId: await readDatabaseId(dataSource) };
  const redis = createRedis(config.redis.url, 'producer', logger, 'web-producer');
  const scoringQueue = createQueue(QUEUE.scoring, redis, config, owner);
  scoringQueue.on('error', connectionErrorListener(logger, { queue: QUEUE.scoring }, 'queue error'));
  const eventsRedis = createRedis(config.redis.url, 'worker', logger, 'web-queue-events');
  const scoringEvents = createQueueEvents(QUEUE.scoring, eventsRedis, config);
  scoringEvents.on('error', connectionErrorListener(logger, { queue: QUEUE.scoring }, 'queue events error'));
  const settlementQueue = createQueue(QUEUE.settlement, redis, config, owner);
  settlementQueue.on('error', connectionErrorListener(logger, { queue: QUEUE.settlement }, 'queue error'));
  const settlementEventsRedis = createRedis(config.redis.url, 'worker', logger, 'web-settlement-events');
  const settlementEvents = createQueueEvents(QUEUE.settlement, settlementEventsRedis, config);
  settlementEvents.on('error', connectionErrorListener(logger, { queue: QUEUE.settlement }, 'queue events error'));
  const exportsQueue = createQueue(QUEUE.exports, redis, config, owner);
  exportsQueue.on('error', connectionErrorListener(logger, { queue: QUEUE.exports }, 'queue error'));
  const exportsEventsRedis = createRedis(config.redis.url, 'worker', logger, 'web-exports-events');
  const exportsEvents = createQueueEvents(QUEUE.exports, exportsEventsRedis, config);
  exportsEvents.on('error', connectionErrorListener(logger, { queue: QUEUE.exports }, 'queue events error'));
  // Jobs added to these queues are watched from before their add (jobs/job-watch.ts).
  bindQueueEvents(scoringQueue, scoringEvents);
  bindQueueEvents(settlementQueue, settlementEvents);
  bindQueueEvents(exportsQueue, exportsEvents);
  await Promise.all([scoringEvents.waitUntilReady(), settlementEvents.waitUntilReady()]);
  await exportsEvents.waitUntilReady();
  const feedRedis = createRedis(config.redis.url, 'worker', logger, 'web-feed-subscriber');
  const feed = createFeedHub(feedRedis, config.redis.queuePrefix, logger);
  const networkRedis = createRedis(config.redis.url, 'worker', logger, 'web-network-config');
  const network = await startNetworkConfigCache({ dataSource, subscriber: networkRedis, publisher: redis, queuePrefix: config.redis.queuePrefix, role: 'web', log: logger });
  const capacity = createCapacityRunner();
  const stress = await createStressQueue(config, redis, logger, owner);
  // The queue web does not produce to, for the dashboard and the depth metric.
  const maintenanceQueue = createQueue(QUEUE.maintenance, redis, config);
  maintenanceQueue.on('error', connectionErrorListener(logger, { queue: QUEUE.maintenance }, 'queue error'));
  const queues = [scoringQueue, settlementQueue, stress.queue, exportsQueue, maintenanceQueue];
  const paidAdmission = createAdmissionLimit(config.payments.admission);
  const deps: ApiDeps = {
    config,
    logger,
    dataSource,
    redis,
    scoringQueue,
    scoringEvents,
    capacity,
    settlementQueue,
    settlementEvents,
    facilitator: createFacilitator(config.payments),
    paidAdmission,
    network,
    metrics: createMetrics(queues, paidAdmission),
    evidence: createPaymentEvidence({ dataSource, buyerHashKey: config.freeTier.callerHashKey }),
    queues,
    feed,
    corpusScores: createCorpusScoreWriter(dataSource, logger),
    stress,
    exports: { queue: exportsQueue, events: exportsEvents },
    outbound: createOutboundGuard({ ...DEFAULT_OUTBOUND_POLICY, ...config.outbound }),
  };
  const close = async () => {
    try {
      await feed.close();
      await closeRedis(feedRedis);
      await network.close();
      await closeRedis(networkRedis);
      await capacity.close();
    } finally {
      try {
        await Promise.all([closeQueueEvents(scoringEvents, eventsRedis), closeQueueEvents(settlementEvents, settlementEventsRedis), stress.close()]);
        await closeQueueEvents(exportsEvents, exportsEventsRedis);
      } finally {
        try {
          // The stress queue is closed with its QueueEvents above.
          await Promise.all([scoringQueue, settlementQueue, exportsQueue, maintenanceQueue].map((q) => q.close()));
        } finally {
          try {
            await closeRedis(redis);
          } finally {
            await deps.corpusScores.drain();
            await dataSource.destroy();
          }
        }
      }
    }
  };
  return { deps, close };
}

/**
 * The HTTP server with its timeouts: slow or stalled request headers and bodies are cut (408)
 * well before Node's 300 s default. The request timeout ends once a request is received, so the
 * live feed's long responses are unaffected. Node checks the timeouts on an interval (30 s by
 * default); a quarter of the headers timeout, at most a second, keeps the cut close to the setting.
 * @param http - the HTTP config
 * @param handler - the request handler (the Koa callback)
 * @returns the server, not yet listening
 */
export function createHttpServer(http: AppConfig['http'], handler: RequestListener): Server {
  const server = createServer(
    {
      headersTimeout: http.headersTimeoutMs,
      requestTimeout: http.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(25, Math.min(1_000, Math.floor(http.headersTimeoutMs / 4))),
    },
    handler,
  );
  server.keepAliveTimeout = http.keepAliveTimeoutMs;
  return server;
}

/**
 * Starts the API: deps -> app -> listen.
 * @param config - the loaded config
 * @param logger - root logger
 * @returns the running server and its close function
 */
export async function startWeb(config: AppConfig, logger: Logger): Promise<WebRuntime> {
  const { deps, close: closeDeps } = await createDeps(config, logger);
  // Body validation refuses foreign replies: load the detector before the first one.
  loadLanguageDetector();
  const app = createApp(deps);
  const server = createHttpServer(config.http, app.callback());
  server.listen(config.http.port, config.http.host);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
  } catch (err) {
    await closeDeps();
    throw err;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.http.port;
  logger.info({ port }, 'api listening');

  let closing: Promise<void> | undefined;
  return {
    server,
    port,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        // Live-feed streams never end on their own.
        await deps.feed.close();
        server.closeIdleConnections();
        // In-flight requests get the grace period, then their connections are cut.
        const grace = setTimeout(() => server.closeAllConnections(), config.shutdownGraceMs);
        try {
          await stopped;
        } finally {
          clearTimeout(grace);
          await closeDeps();
        }
      })();
      return closing;
    },
  };
}

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const problem = publicOriginProblem(config);
  if (problem) throw new Error(problem);
  const logger = createLogger(config, 'web', undefined, secretHeaderNames(PAYMENT_METHODS));
  const runtime = await startWeb(config, logger);
  let stopping = false;
  const stop = (signal: NodeJS.Signals | 'disconnect') => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'api shutting down');
    // Last resort if a dependency never lets go; unref'd, so a clean shutdown exits before it.
    setTimeout(() => {
      logger.error('api shutdown timed out');
      process.exit(1);
    }, config.shutdownGraceMs + 5_000).unref();
    runtime.close().then(
      () => logger.info('api stopped'),
      (err: unknown) => {
        logger.error({ err }, 'api shutdown failed');
        process.exitCode = 1;
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  reportReadyToSupervisor({ type: 'ready', role: 'web', port: runtime.port }, () => stop('disconnect'));
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`api failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
