// `npm run bench:split`: the free score's web and worker, each measured alone against its floor
// counterpart, so that where speed goal 3 goes (free score against the floor) is not hidden
// by the two processes competing for the same two cores, which in `bench:http` moves every
// process's CPU per call by tens of percent between cases.
//
// web: the service's web (`api/server`) and floor-pg's web (scripts/bench/noop-round-trip.ts,
// `floor-pg-web`: a bare Koa app with the free round's one PostgreSQL statement) take the same free
// score requests from autocannon; one canned worker in this process answers both webs' jobs at once
// with one engine result computed before the run, so nothing but the web differs. Reported: each
// web process's own CPU per 200 (from /proc), its throughput and p50, at 1 and 50 connections.
//
// worker: the service's worker (`workers/main`) and the floor's worker (`floor-worker`: BullMQ over
// the same Piscina pool, nothing else) each drain BENCH_SPLIT_JOBS jobs queued before they start
// taking them (their CPU per job, threads included), then run BENCH_SPLIT_SERIAL jobs one at a time
// (the round trip from the add to the completion event: what one connection waits on).
//
// Every case runs once per round (BENCH_ROUNDS, 3), the two sides in turn; medians over rounds,
// each round in brackets. Children run as in `bench:http` (scripts/bench/children.ts: a compiled
// copy, or the sources with BENCH_FROM_SOURCE=1; BENCH_CHILD_NODE_ARGS), on a throwaway database
// and a unique BullMQ prefix, both removed at the end, also on Ctrl-C. Environment: BENCH_ROUNDS,
// BENCH_SECONDS (8), BENCH_SPLIT_JOBS (1500), BENCH_SPLIT_SERIAL (400), BENCH_REDIS_URL,
// BENCH_PG_ADMIN_URL, BENCH_KEEP_LOGS=1.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { QUEUE, SCORE_TEXT_JOB } from '../../jobs';
import { loadConfig } from '../../shared/config';
import { createDataSource } from '../../shared/db/create-data-source';
import { readDatabaseId } from '../../shared/db/database-identity';
import { PROFILES } from '../../shared/profiles';
import { scoreText } from '../../shared/scoring';
import { adminStatement, cleanUpOnInterrupt, createMigratedDatabase, freePort, procStat, removeQueueKeys, serviceEnv as serviceEnvFor } from './bench-env';
import { FROM_SOURCE, benchRunner, startChild, stopChild, waitFor, type Child } from './children';
import { FLOOR_PG_QUEUE, FLOOR_QUEUE } from './noop-round-trip';
import { median } from './stats';

const ROOT = path.resolve(__dirname, '..', '..');
const STOP_GRACE_MS = 20_000;
const READY_MS = 60_000;
const ROUNDS = positiveInt('BENCH_ROUNDS', 3);
const SECONDS = positiveInt('BENCH_SECONDS', 8);
const JOBS = positiveInt('BENCH_SPLIT_JOBS', 1500);
const SERIAL = positiveInt('BENCH_SPLIT_SERIAL', 400);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PG_ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const TEXT = "Honestly I'd just ring them tomorrow morning and ask what happened with the order; it's probably a mix-up at the depot and they'll sort it out.";
const INCOMING = 'My parcel never arrived and the tracking says delivered. What should I do?';
const PROFILE = PROFILES[0].id;

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

function cpuMsOf(child: Child): number {
  const stat = procStat(child.proc.pid!);
  if (!stat) throw new Error(`${child.name} exited during its case`);
  return stat.cpu * 1000;
}

function body(i: number): string {
  return JSON.stringify({
    data_consent: true,
    proposed_text: `${TEXT} (${i % 11})`,
    incoming_message: INCOMING,
    target_profile: PROFILE,
    response_delay_seconds: 20 + (i % 50),
  });
}

interface WebRound {
  rps: number;
  p50: number;
  cpuPerCall: number;
}

async function loadWeb(child: Child, url: string, connections: number, seconds: number): Promise<WebRound> {
  let i = 0;
  const before = cpuMsOf(child);
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    duration: seconds,
    requests: [
      {
        // A caller per request, as the free tier is used (X-Forwarded-For with TRUSTED_PROXY_HOPS=1).
        setupRequest: (req) => {
          i++;
          return { ...req, headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.${(i >> 8) & 255}.${i & 255}` }, body: body(i) };
        },
      },
    ],
  });
  const cpu = cpuMsOf(child) - before;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${child.name}: ${result.non2xx} non-2xx and ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, cpuPerCall: cpu / result['2xx'] };
}

interface WorkerRound {
  cpuPerJob: number;
  serialP50: number;
}

async function runWorker(child: Child, queue: Queue, events: QueueEvents, job: (i: number) => { name: string; data: object }): Promise<WorkerRound> {
  // Drain: the jobs wait in a paused queue, so the worker's CPU is counted only while it works.
  await queue.pause();
  const warm = Math.ceil(JOBS / 5);
  const add = async (from: number, count: number) => {
    for (let k = 0; k < count; k += 500) {
      const n = Math.min(500, count - k);
      await queue.addBulk(Array.from({ length: n }, (_, j) => ({ ...job(from + k + j), opts: { jobId: randomUUID(), removeOnComplete: true, removeOnFail: true } })));
    }
  };
  const drain = async (count: number) => {
    const before = cpuMsOf(child);
    await queue.resume();
    await waitFor(`${child.name} to drain ${count} jobs`, async () => (await queue.count()) === 0 && (await queue.getActiveCount()) === 0, [child], 600_000);
    const cpu = cpuMsOf(child) - before;
    await queue.pause();
    return cpu / count;
  };
  await add(0, warm);
  await drain(warm);
  await add(warm, JOBS);
  const cpuPerJob = await drain(JOBS);
  await queue.resume();
  // Serial: one job at a time, as one connection's free scores reach the worker.
  const trips: number[] = [];
  for (let i = 0; i < SERIAL; i++) {
    const started = process.hrtime.bigint();
    const added = await queue.add(job(i).name, job(i).data, { jobId: randomUUID(), removeOnComplete: { age: 60 }, removeOnFail: { age: 60 } });
    await added.waitUntilFinished(events, 10_000);
    trips.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return { cpuPerJob, serialP50: median(trips.slice(Math.ceil(SERIAL / 10))) };
}

function report(label: string, unit: string, rounds: number[], digits = 3): number {
  const m = median(rounds);
  out(`  ${label}: ${m.toFixed(digits)}${unit ? ` ${unit}` : ''} [${rounds.map((x) => x.toFixed(digits)).join(', ')}]`);
  return m;
}

async function main(): Promise<void> {
  if (process.env.NODE_ENV === 'production') throw new Error('the bench refuses to run with NODE_ENV=production');
  const run = `${process.pid}-${randomBytes(3).toString('hex')}`;
  const dbName = `humanlike_split_${run.replace('-', '_')}`;
  const prefix = `bench-split-${run}`;
  const logDir = mkdtempSync(path.join(tmpdir(), 'humanlike-split-'));
  // Inside the repository (ignored by git) so the compiled files resolve node_modules.
  const buildDir = path.join(ROOT, '.bench', `build-split-${run}`);
  const children: Child[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  let failed = false;
  const cleanup = async () => {
    await Promise.all(children.map((c) => stopChild(c, STOP_GRACE_MS).catch(() => undefined)));
    for (const close of closers) await close().catch(() => undefined);
    await removeQueueKeys(REDIS_URL, prefix, [...Object.values(QUEUE), FLOOR_QUEUE, FLOOR_PG_QUEUE]).catch((err: unknown) => out(`warning: Redis cleanup under ${prefix}: ${String(err)}`));
    await adminStatement(PG_ADMIN_URL, `DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch((err: unknown) => out(`warning: dropping ${dbName}: ${String(err)}`));
    rmSync(buildDir, { recursive: true, force: true });
    if (failed || process.env.BENCH_KEEP_LOGS === '1') out(`child logs kept in ${logDir}`);
    else rmSync(logDir, { recursive: true, force: true });
  };
  const stopWatching = cleanUpOnInterrupt(() => {
    failed = true;
    return cleanup();
  });
  try {
    const [databaseUrl, runner] = await Promise.all([createMigratedDatabase(PG_ADMIN_URL, dbName), benchRunner(buildDir)]);
    const ds = createDataSource({ url: databaseUrl, poolMax: 1, ssl: false }, 'bench-split');
    await ds.initialize();
    const databaseId = await readDatabaseId(ds).finally(() => ds.destroy());

    const serviceEnv = serviceEnvFor({ logLevel: 'info', redisUrl: REDIS_URL, queuePrefix: prefix, databaseUrl });
    const config = loadConfig({ ...process.env, ...serviceEnv });
    const floorEnv = { REDIS_URL, QUEUE_PREFIX: prefix, NOOP_CONCURRENCY: String(config.scoring.concurrency), FLOOR_THREADS: String(config.scoring.threads) };
    out(`split bench: ${ROUNDS} round(s), ${SECONDS} s per web case, ${JOBS} jobs drained and ${SERIAL} serial per worker case, node ${process.version}, ${config.scoring.threads} scoring threads, ${FROM_SOURCE ? 'sources under tsx' : 'compiled JS'}`);

    // Web: one canned worker answers both webs' jobs with a result computed once.
    const canned = { score: scoreText({ text: TEXT, incoming: INCOMING, profile: PROFILE, delaySeconds: 30, deep: false }), threadMs: 0 };
    const cannedWorkers = [QUEUE.scoring, FLOOR_PG_QUEUE].map(
      (name) => new Worker(name, async () => canned, { connection: { url: REDIS_URL, maxRetriesPerRequest: null }, prefix, concurrency: 16 }),
    );
    closers.push(() => Promise.all(cannedWorkers.map((w) => w.close())));
    const ports = [await freePort(), await freePort()];
    const started = [
      { child: startChild('service web', runner, 'api/server', [], { ...serviceEnv, PORT: String(ports[0]) }, logDir), url: `http://127.0.0.1:${ports[0]}/api/score` },
      {
        child: startChild('floor-pg web', runner, 'scripts/bench/noop-round-trip', ['floor-pg-web'], { ...floorEnv, DATABASE_URL: databaseUrl, PORT: String(ports[1]) }, logDir),
        url: `http://127.0.0.1:${ports[1]}/`,
      },
    ];
    children.push(...started.map((w) => w.child));
    for (const w of started) {
      await waitFor(`${w.child.name} to score`, async () => {
        const res = await fetch(w.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.8.0.1' }, body: body(0) });
        return res.status === 200;
      }, children, READY_MS);
    }
    const web: Record<string, Record<number, WebRound[]>> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const connections of [1, 50]) {
        for (const w of started) {
          await loadWeb(w.child, w.url, connections, 2); // warm-up
          ((web[w.child.name] ??= {})[connections] ??= []).push(await loadWeb(w.child, w.url, connections, SECONDS));
        }
      }
    }
    await Promise.all(started.map((w) => stopChild(w.child, STOP_GRACE_MS)));
    children.length = 0;
    // The scoring queue is the service worker's from here on.
    await Promise.all(cannedWorkers.map((w) => w.close()));

    // Worker: each drains jobs queued ahead, then runs jobs one at a time.
    const scoring = new Queue(QUEUE.scoring, { connection: { url: REDIS_URL }, prefix });
    const floorQueue = new Queue(FLOOR_QUEUE, { connection: { url: REDIS_URL }, prefix });
    const scoringEvents = new QueueEvents(QUEUE.scoring, { connection: { url: REDIS_URL }, prefix });
    const floorEvents = new QueueEvents(FLOOR_QUEUE, { connection: { url: REDIS_URL }, prefix });
    closers.push(() => scoringEvents.close(), () => floorEvents.close(), () => scoring.close(), () => floorQueue.close());
    await Promise.all([scoringEvents.waitUntilReady(), floorEvents.waitUntilReady()]);
    const workers = [
      {
        child: startChild('service worker', runner, 'workers/main', [], serviceEnv, logDir),
        queue: scoring,
        events: scoringEvents,
        job: (i: number) => ({ name: SCORE_TEXT_JOB, data: { input: { text: `${TEXT} (${i % 11})`, incoming: INCOMING, profile: PROFILE, delaySeconds: 30, deep: false }, reqId: randomUUID(), databaseId } }),
      },
      {
        child: startChild('floor worker', runner, 'scripts/bench/noop-round-trip', ['floor-worker'], floorEnv, logDir),
        queue: floorQueue,
        events: floorEvents,
        job: (i: number) => ({ name: 'floor', data: { text: `${TEXT} (${i % 11})`, incoming: INCOMING, profile: PROFILE, delaySeconds: 30 } }),
      },
    ];
    children.push(...workers.map((w) => w.child));
    for (const w of workers) await waitFor(`${w.child.name} to take jobs`, async () => (await w.queue.getWorkersCount()) > 0, children, READY_MS);
    const worker: Record<string, WorkerRound[]> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const w of workers) (worker[w.child.name] ??= []).push(await runWorker(w.child, w.queue, w.events, w.job));
    }

    out('\nweb alone (one canned worker answers both; CPU of the web process per 200):');
    const ratios: string[] = [];
    for (const connections of [1, 50]) {
      const cpu = (name: string) => report(`${name} x${connections} CPU`, 'ms per 200', web[name][connections].map((r) => r.cpuPerCall));
      const service = cpu('service web');
      const floor = cpu('floor-pg web');
      report(`service web x${connections} req/s`, '', web['service web'][connections].map((r) => r.rps), 1);
      report(`floor-pg web x${connections} req/s`, '', web['floor-pg web'][connections].map((r) => r.rps), 1);
      // autocannon reports latency percentiles in whole milliseconds.
      report(`service web x${connections} p50`, 'ms', web['service web'][connections].map((r) => r.p50), 0);
      report(`floor-pg web x${connections} p50`, 'ms', web['floor-pg web'][connections].map((r) => r.p50), 0);
      ratios.push(`web CPU x${connections}: service ${(service / floor).toFixed(2)}x floor-pg's`);
    }
    out('\nworker alone (CPU of the worker process, threads included, per job; serial: add to completion event, one job at a time):');
    const serviceJob = report('service worker drain CPU', 'ms per job', worker['service worker'].map((r) => r.cpuPerJob));
    const floorJob = report('floor worker drain CPU', 'ms per job', worker['floor worker'].map((r) => r.cpuPerJob));
    const serviceSerial = report('service worker serial p50', 'ms', worker['service worker'].map((r) => r.serialP50));
    const floorSerial = report('floor worker serial p50', 'ms', worker['floor worker'].map((r) => r.serialP50));
    ratios.push(`worker CPU per job: service ${(serviceJob / floorJob).toFixed(2)}x the floor's`, `worker serial p50: service ${(serviceSerial / floorSerial).toFixed(2)}x the floor's`);
    out(`\nratios of the medians:\n${ratios.join('\n')}`);
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    if (!stopWatching()) await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`split bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
