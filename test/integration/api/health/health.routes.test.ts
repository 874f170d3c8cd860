import { Writable } from 'node:stream';
import { expect } from 'chai';
import supertest from 'supertest';
import { createApp } from '../../../../api/app';
import type { ApiDeps } from '../../../../api/routes';
import { callerHashFor } from '../../../../api/http/caller-key';
import { closeQueueEvents, createQueue, createQueueEvents, QUEUE } from '../../../../jobs';
import { createDataSource } from '../../../../shared/db/create-data-source';
import { createLogger } from '../../../../shared/logger';
import { createCapacityRunner } from '../../../../api/health/capacity';
import type { Redis } from 'ioredis';
import { closeRedis, createRedis } from '../../../../shared/redis';
import { SCORER_VERSION } from '../../../../shared/scoring/version';
import { testConfig } from '../../../helpers/config';
import { closedPort } from '../../../helpers/ports';
import { startTcpRelay } from '../../../helpers/tcp-relay';
import { startTestStack, type TestStack } from '../../../helpers/stack';
import { until } from '../../../helpers/until';

describe('health routes', function () {
  let stack: TestStack;

  before(async function () {
    stack = await startTestStack('health', { worker: false });
  });
  after(async function () {
    await stack?.close();
  });

  describe('GET /api/healthz', function () {
    it('answers 200 when Redis and PostgreSQL answer', async function () {
      const res = await stack.http.get('/api/healthz').expect(200);
      expect(res.body).to.deep.equal({ status: 'ok', checks: { redis: 'ok', postgres: 'ok' } });
    });

    it('answers 503 naming PostgreSQL when the database is unreachable', async function () {
      const port = await closedPort();
      const dataSource = createDataSource({ url: `postgres://postgres@127.0.0.1:${port}/none`, poolMax: 1, ssl: false }, 'test-down');
      const app = createApp({ ...stack.deps, dataSource });
      const res = await supertest(app.callback()).get('/api/healthz');
      expect(res.status).to.equal(503);
      expect(res.body.error.code).to.equal('dependency_unavailable');
      expect(res.body.error.message).to.contain('postgres');
      expect(res.body.error.details).to.deep.equal({ checks: { redis: 'ok', postgres: 'down' }, failing: ['postgres'] });
    });
  });

  describe('when Redis is down', function () {
    let deps: ApiDeps;
    let eventsRedis: Redis;
    let http: ReturnType<typeof supertest>;

    before(async function () {
      const url = `redis://127.0.0.1:${await closedPort()}`;
      const config = testConfig({ ...envOf(stack), REDIS_URL: url, JOB_ENQUEUE_TIMEOUT_MS: '300' });
      const logger = createLogger(config, 'test');
      const redis = createRedis(url, 'producer', logger, 'test-down');
      const scoringQueue = createQueue(QUEUE.scoring, redis, config);
      scoringQueue.on('error', () => undefined);
      eventsRedis = createRedis(url, 'worker', logger, 'test-down-events');
      const scoringEvents = createQueueEvents(QUEUE.scoring, eventsRedis, config);
      scoringEvents.on('error', () => undefined);
      deps = { ...stack.deps, config, redis, scoringQueue, scoringEvents };
      http = supertest(createApp(deps).callback());
    });

    after(async function () {
      await closeQueueEvents(deps.scoringEvents, eventsRedis);
      await deps.scoringQueue.close();
      await closeRedis(deps.redis);
    });

    it('answers 503 on the health check, naming Redis', async function () {
      const res = await http.get('/api/healthz');
      expect(res.status).to.equal(503);
      expect(res.body.error.message).to.contain('redis');
      expect(res.body.error.details.failing).to.deep.equal(['redis']);
    });

    it('answers 503 queue_unavailable to a free score, gives the round back and keeps serving', async function () {
      const res = await http.post('/api/score').set('X-Forwarded-For', '192.0.2.99').send({ data_consent: true, proposed_text: 'hello there, friend' });
      expect(res.status).to.equal(503);
      expect(res.body.error.code).to.equal('queue_unavailable');
      expect(res.headers['retry-after']).to.equal('5');
      const rows = (await stack.deps.dataSource.query('SELECT scores_used FROM free_callers WHERE caller_hash = $1', [
        callerHashFor('192.0.2.99', deps.config.freeTier.callerHashKey),
      ])) as Array<{ scores_used: number }>;
      expect(rows[0].scores_used).to.equal(0);
      await http.get('/api/profiles').expect(200);
    });
  });

  describe('when PostgreSQL goes away after start', function () {
    it('answers 503 database_unavailable to a free score, leaves no job waiting, and keeps serving', async function () {
      const url = new URL(stack.config.db.url ?? '');
      const relay = await startTcpRelay({ host: url.hostname, port: Number(url.port || 5432) });
      url.host = `127.0.0.1:${relay.port}`;
      const dataSource = createDataSource({ url: url.toString(), poolMax: 2, ssl: false, preparedStatements: true }, 'test-cut');
      await dataSource.initialize();
      try {
        const http = supertest(createApp({ ...stack.deps, dataSource }).callback());
        await relay.cut();
        const waitingBefore = await stack.deps.scoringQueue.getWaitingCount();
        const res = await http.post('/api/score').set('X-Forwarded-For', '192.0.2.98').send({ data_consent: true, proposed_text: 'hello there, friend' });
        expect(res.status, JSON.stringify(res.body)).to.equal(503);
        expect(res.body.error.code).to.equal('database_unavailable');
        expect(res.body).not.to.have.property('score');
        // This stack has no worker: the job queued beside the reservation was removed, not left waiting.
        await until(async () => (await stack.deps.scoringQueue.getWaitingCount()) === waitingBefore, 5_000, 'the queued job removed');
        await http.get('/api/profiles').expect(200);
      } finally {
        await dataSource.destroy().catch(() => undefined);
      }
    });
  });

  describe('GET /api/health-capacity', function () {
    it('benchmarks the scorer on a thread and reports timings', async function () {
      const res = await stack.http.get('/api/health-capacity?iterations=20').expect(200);
      expect(res.body).to.include({ iterations: 20, scores: 1, scorer_version: SCORER_VERSION });
      expect(res.body.characters_scored).to.be.at.least(20);
      expect(res.body.scores_per_second).to.be.a('number').and.above(0);
      expect(res.body.p50_ms).to.be.at.most(res.body.p99_ms);
      expect(res.body.threads_available).to.be.at.least(1);
    });

    it('turns callers away with 503 capacity_busy while benchmarks are queued, logged below error level', async function () {
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(...chunk.toString().split('\n').filter(Boolean));
          done();
        },
      });
      const config = testConfig({ ...envOf(stack), LOG_LEVEL: 'info' });
      const capacity = createCapacityRunner();
      try {
        const http = supertest(createApp({ ...stack.deps, config, logger: createLogger(config, 'test', sink), capacity }).callback());
        // One benchmark thread and two waiting places: of six at once, some are turned away.
        const answers = await Promise.all(Array.from({ length: 6 }, () => http.get('/api/health-capacity?iterations=100000')));
        expect(answers.filter((r) => r.status !== 200 && r.status !== 503).map((r) => r.body)).to.deep.equal([]);
        const busy = answers.filter((r) => r.status === 503);
        expect(busy.length).to.be.within(1, 3);
        expect(busy[0].body).to.deep.equal({
          error: { code: 'capacity_busy', message: 'A capacity benchmark is already running; retry shortly.', details: null },
        });
        expect(busy[0].headers['retry-after']).to.equal('5');

        const refusals = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.code === 'capacity_busy');
        expect(refusals).to.have.length(busy.length);
        // warn (40), without the error and its stack: a refusal is not a fault.
        expect(refusals.map((l) => ({ level: l.level, err: l.err }))).to.deep.equal(busy.map(() => ({ level: 40, err: undefined })));
      } finally {
        await capacity.close();
      }
    });
  });
});

function envOf(stack: TestStack): Record<string, string> {
  return { DATABASE_URL: stack.config.db.url ?? '', QUEUE_PREFIX: stack.config.redis.queuePrefix };
}
