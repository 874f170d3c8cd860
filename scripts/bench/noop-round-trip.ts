// The baseline of `npm run bench:http`: the cheapest Koa + BullMQ round trip this machine can do.
// A minimal Koa app parses the JSON body, enqueues a job on its own queue and waits for it with
// waitUntilFinished; a worker whose processor returns at once completes it. Same Redis, same
// BullMQ version, same process split (web and worker) and worker concurrency as the scoring
// service, and none of its work (validation, free-tier ledger, scoring, free corpus).
//
// Run as a child of http.bench.ts: `node --import tsx scripts/bench/noop-round-trip.ts web|worker`
// with REDIS_URL, QUEUE_PREFIX, and PORT (web) or NOOP_CONCURRENCY (worker) in the environment.
import type { Server } from 'node:http';
import { bodyParser } from '@koa/bodyparser';
import { Queue, QueueEvents, Worker } from 'bullmq';
import Koa from 'koa';

/** The baseline's queue; its name cannot collide with the service's queues under one prefix. */
export const NOOP_QUEUE = 'bench-noop';

/** Where the baseline connects. */
export interface NoopOptions {
  redisUrl: string;
  prefix: string;
}

/** A running baseline process. */
export interface NoopRuntime {
  close(): Promise<void>;
}

/**
 * Starts the baseline web process: `GET /` answers 200 (readiness), `POST /` runs one round trip.
 * @param options - Redis URL and BullMQ prefix
 * @param port - port to listen on (127.0.0.1)
 * @returns the runtime
 */
export async function startNoopWeb(options: NoopOptions, port: number): Promise<NoopRuntime> {
  const queue = new Queue(NOOP_QUEUE, {
    connection: { url: options.redisUrl },
    prefix: options.prefix,
    // Same retention as the service's jobs: a waiter that subscribes late still finds the job.
    defaultJobOptions: { removeOnComplete: { age: 300 }, removeOnFail: { age: 300 } },
  });
  const events = new QueueEvents(NOOP_QUEUE, { connection: { url: options.redisUrl }, prefix: options.prefix });
  await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);

  const app = new Koa();
  app.use(bodyParser({ enableTypes: ['json'] }));
  app.use(async function noopRoundTrip(ctx) {
    if (ctx.method === 'GET') {
      ctx.body = { ok: true };
      return;
    }
    const body = ctx.request.body as { proposed_text?: unknown } | undefined;
    const job = await queue.add('noop', { text: typeof body?.proposed_text === 'string' ? body.proposed_text : '' });
    const result = await job.waitUntilFinished(events, 15_000);
    ctx.body = { ok: true, result };
  });
  const server: Server = app.listen(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  return {
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await events.close();
      await queue.close();
    },
  };
}

/**
 * Starts the baseline worker: a processor that returns at once.
 * @param options - Redis URL and BullMQ prefix
 * @param concurrency - jobs at once (the scoring worker's concurrency, for a like-for-like baseline)
 * @returns the runtime
 */
export async function startNoopWorker(options: NoopOptions, concurrency: number): Promise<NoopRuntime> {
  const worker = new Worker(NOOP_QUEUE, async () => ({ done: true }), {
    connection: { url: options.redisUrl, maxRetriesPerRequest: null },
    prefix: options.prefix,
    concurrency,
  });
  await worker.waitUntilReady();
  return { close: () => worker.close() };
}

async function main(): Promise<void> {
  const role = process.argv[2];
  const options = { redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix: process.env.QUEUE_PREFIX ?? 'bench' };
  let runtime: NoopRuntime;
  if (role === 'web') runtime = await startNoopWeb(options, Number(process.env.PORT));
  else if (role === 'worker') runtime = await startNoopWorker(options, Number(process.env.NOOP_CONCURRENCY ?? 1));
  else throw new Error(`unknown role "${role}" (web or worker)`);
  const stop = () => {
    runtime.close().then(
      () => undefined,
      (err: unknown) => {
        process.stderr.write(`noop ${role} close failed: ${String(err)}\n`);
        process.exitCode = 1;
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`noop target failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
