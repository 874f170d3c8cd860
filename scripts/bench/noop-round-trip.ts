// The baselines of `npm run bench:http`.
//
// no-op: the cheapest Koa + BullMQ round trip this machine can do. A minimal Koa app parses the
// JSON body, enqueues a job on its own queue and waits for its completion event, listened for from
// before the add as the service does (jobs/job-watch.ts: no state read per job); a worker
// whose processor returns at once completes it. Same Redis, same BullMQ version, same process split
// (web and worker) and worker concurrency as the scoring service, and none of its work
// (validation, free-tier ledger, scoring, free corpus).
//
// floor: the same round trip whose worker scores the reply on the service's own Piscina pool
// (workers/pool, the engine of shared/scoring) and nothing else: no validation, no database, no
// logging. No implementation of the architecture (API -> BullMQ -> worker -> Piscina thread) can
// answer a scored request cheaper than this, so it bounds what the service can reach.
//
// floor-pg: the floor plus the one PostgreSQL statement a free round needs (speed goal 3): the
// service's own reservation statement (api/free-score/free-rounds.ts: the caller's round counted
// and the consented reply kept in the free corpus, as the contract's corpus needs), keyed by a hash
// of the caller (X-Forwarded-For), run beside the job as the service runs it; the web answers when
// both are done. Its jobs go to a queue of its own, served by the floor's worker process. No
// implementation that keeps free rounds and the consented replies in PostgreSQL answers cheaper.
//
// Run as a child of http.bench.ts: `node scripts/bench/noop-round-trip.js <role>` with role web,
// worker, floor-web, floor-pg-web or floor-worker, and REDIS_URL, QUEUE_PREFIX, and PORT (web roles;
// DATABASE_URL too for floor-pg-web) or NOOP_CONCURRENCY (worker roles; FLOOR_THREADS too for
// floor-worker) in the environment.
import { createHash, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { bodyParser } from '@koa/bodyparser';
import { Queue, QueueEvents, Worker } from 'bullmq';
import Koa from 'koa';
import { Pool, type QueryConfig } from 'pg';
import { RESERVE_ROUND } from '../../api/free-score/free-rounds';
import { JobWatch } from '../../jobs/job-watch';
import { createScoringPool } from '../../workers/pool';

/** The baselines' queues; their names cannot collide with the service's queues under one prefix. */
export const NOOP_QUEUE = 'bench-noop';
export const FLOOR_QUEUE = 'bench-floor';
/** floor-pg's own queue: on the floor's, the idle floor web would read every floor-pg job's events. */
export const FLOOR_PG_QUEUE = 'bench-floor-pg';

/** What the baseline web passes to its worker: the reply as the service's job carries it. */
export interface BaselineJob {
  text: string;
  incoming?: string;
  profile?: string;
  delaySeconds?: number;
}

/**
 * The reply of a request body, as the baseline web passes it to its worker.
 * @param body - the parsed JSON body
 * @returns the job's data
 */
export function jobFrom(body: unknown): BaselineJob {
  const b = (body ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    text: str(b.proposed_text) ?? '',
    incoming: str(b.incoming_message),
    profile: str(b.target_profile),
    delaySeconds: typeof b.response_delay_seconds === 'number' ? b.response_delay_seconds : undefined,
  };
}

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
 * Starts a baseline web process: `GET /` answers 200 (readiness), `POST /` runs one round trip.
 * @param options - Redis URL and BullMQ prefix
 * @param port - port to listen on (127.0.0.1)
 * @param queueName - NOOP_QUEUE, FLOOR_QUEUE or FLOOR_PG_QUEUE
 * @param round - work run beside the job for each request (the floor-pg's statement)
 * @returns the runtime
 */
export async function startNoopWeb(
  options: NoopOptions,
  port: number,
  queueName: string,
  round?: (caller: string, job: BaselineJob) => Promise<unknown>,
): Promise<NoopRuntime> {
  const queue = new Queue(queueName, {
    connection: { url: options.redisUrl },
    prefix: options.prefix,
    defaultJobOptions: { removeOnComplete: { age: 300 }, removeOnFail: { age: 300 } },
  });
  const events = new QueueEvents(queueName, { connection: { url: options.redisUrl }, prefix: options.prefix });
  await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);

  const app = new Koa();
  app.use(bodyParser({ enableTypes: ['json'] }));
  app.use(async function noopRoundTrip(ctx) {
    if (ctx.method === 'GET') {
      ctx.body = { ok: true };
      return;
    }
    const job = jobFrom(ctx.request.body);
    const roundTrip = async () => {
      // Listening before the add, the completion cannot pass unseen (no state read needed).
      const jobId = randomUUID();
      const watch = new JobWatch(events, jobId);
      await queue.add('noop', job, { jobId });
      const outcome = await watch.next();
      if (outcome.kind !== 'completed') throw new Error(`baseline job ${outcome.kind}`);
      return outcome.value;
    };
    const [result] = await Promise.all([roundTrip(), round?.(ctx.get('x-forwarded-for'), job)]);
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
 * Starts the no-op worker: a processor that returns at once.
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

/**
 * Starts the floor worker: scores each job of the floor's and floor-pg's queues on the service's
 * Piscina pool, with the service's thread count, and returns the engine's result. One case runs at
 * a time, so the two queues' workers share the pool as one worker would.
 * @param options - Redis URL and BullMQ prefix
 * @param concurrency - jobs at once (the scoring worker's concurrency)
 * @param threads - scoring threads (the scoring worker's thread count)
 * @returns the runtime
 */
export async function startFloorWorker(options: NoopOptions, concurrency: number, threads: number): Promise<NoopRuntime> {
  const pool = createScoringPool({ threads, concurrency });
  const workers = [FLOOR_QUEUE, FLOOR_PG_QUEUE].map(
    (queue) =>
      new Worker<BaselineJob>(
        queue,
        async (job) => {
          const out = await pool.run({ ...job.data, deep: false });
          if (!out.ok) throw new Error(out.error.message);
          return { score: out.result, threadMs: out.ms };
        },
        { connection: { url: options.redisUrl, maxRetriesPerRequest: null }, prefix: options.prefix, concurrency },
      ),
  );
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  return {
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      await pool.destroy();
    },
  };
}

/**
 * Starts the floor-pg web: the floor's web plus the service's free-round reservation per request
 * (the bench's limits: never capped), through a pool as large as the service's default, on the
 * bench's migrated database.
 * @param options - Redis URL and BullMQ prefix
 * @param port - port to listen on (127.0.0.1)
 * @param databaseUrl - the bench's database
 * @returns the runtime
 */
export async function startFloorPgWeb(options: NoopOptions, port: number, databaseUrl: string): Promise<NoopRuntime> {
  const pool = new Pool({ connectionString: databaseUrl, max: 10 });
  const web = await startNoopWeb(options, port, FLOOR_PG_QUEUE, (caller, job) => pool.query(reserveRoundQuery(caller, job)));
  return {
    async close() {
      await web.close();
      await pool.end();
    },
  };
}

/**
 * The free round's reservation as floor-pg runs it (the bench's limits: never capped), keyed by a
 * hash of the caller; the bench's measurement of one statement runs it too.
 * @param caller - the caller (floor-pg: its X-Forwarded-For)
 * @param job - the reply kept in the free corpus
 * @returns the query, for a pg pool
 */
export function reserveRoundQuery(caller: string, job: BaselineJob): QueryConfig {
  return {
    name: RESERVE_ROUND.name,
    text: RESERVE_ROUND.text,
    values: [createHash('sha256').update(caller).digest('hex'), 1e9, 1e9 + 1, randomUUID(), job.profile ?? null, job.text, job.delaySeconds ?? null],
  };
}

async function main(): Promise<void> {
  const role = process.argv[2];
  const options = { redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix: process.env.QUEUE_PREFIX ?? 'bench' };
  const concurrency = Number(process.env.NOOP_CONCURRENCY ?? 1);
  let runtime: NoopRuntime;
  if (role === 'web') runtime = await startNoopWeb(options, Number(process.env.PORT), NOOP_QUEUE);
  else if (role === 'worker') runtime = await startNoopWorker(options, concurrency);
  else if (role === 'floor-web') runtime = await startNoopWeb(options, Number(process.env.PORT), FLOOR_QUEUE);
  else if (role === 'floor-pg-web') runtime = await startFloorPgWeb(options, Number(process.env.PORT), process.env.DATABASE_URL ?? '');
  else if (role === 'floor-worker') runtime = await startFloorWorker(options, concurrency, Number(process.env.FLOOR_THREADS ?? 1));
  else throw new Error(`unknown role "${role}" (web, worker, floor-web, floor-pg-web or floor-worker)`);
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
