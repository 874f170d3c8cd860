import { Writable } from 'node:stream';
import { Queue } from 'bullmq';
import { expect } from 'chai';
import { awaitResult, enqueueScoreText, QUEUE, SCORE_TEXT_JOB, type ScoreTextPayload } from '../../../jobs';
import { createDataSource } from '../../../shared/db/create-data-source';
import { readDatabaseId } from '../../../shared/db/database-identity';
import { createLogger } from '../../../shared/logger';
import { startWorkers, type WorkerRuntime } from '../../../workers/main';
import { testConfig } from '../../helpers/config';
import { createDatabase, databaseUrl, dropDatabase } from '../../helpers/db';
import { startTestStack, type TestStack } from '../../helpers/stack';
import { until } from '../../helpers/until';

function captureLogs() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

/**
 * Two stacks on one Redis queue prefix: the web of stack A enqueues, and the worker of
 * stack B, on another database, takes the job first. It must put the job back for A's worker.
 */
describe('a worker sharing a queue prefix with another stack', function () {
  this.timeout(30_000);
  const foreignDb = `humanlike_test_${process.pid}_foreign`;
  let stack: TestStack;
  let foreign: WorkerRuntime | undefined;
  let owner: WorkerRuntime | undefined;
  let plain: Queue | undefined;

  before(async function () {
    // Stack A: web only, on the run's database; its queues stamp jobs with that database's id.
    stack = await startTestStack('foreign-job', { worker: false });
    await createDatabase(foreignDb);
    const ds = createDataSource({ url: databaseUrl(foreignDb), poolMax: 1, ssl: false }, 'test-migrate');
    await ds.initialize();
    try {
      await ds.runMigrations();
      expect(await readDatabaseId(ds)).not.to.equal(await readDatabaseId(stack.deps.dataSource));
    } finally {
      await ds.destroy();
    }
  });
  after(async function () {
    await plain?.close();
    await foreign?.close();
    await owner?.close();
    await stack?.close();
    await dropDatabase(foreignDb);
  });

  it('puts back a job of another database without using an attempt, and its owner completes it', async function () {
    const logs = captureLogs();
    const foreignConfig = testConfig({ DATABASE_URL: databaseUrl(foreignDb), QUEUE_PREFIX: stack.config.redis.queuePrefix, LOG_LEVEL: 'info' });
    foreign = await startWorkers(foreignConfig, createLogger(foreignConfig, 'worker', logs.stream));
    let putBack = 0;
    stack.deps.scoringEvents.on('delayed', () => putBack++);

    const payload: ScoreTextPayload = { input: { text: 'sure thing, I can take a look after lunch', deep: false, profile: 'dry-witted-colleague' } };
    const job = await enqueueScoreText(stack.deps.scoringQueue, payload, { kind: 'idempotency-key', key: 'foreign-1' }, 2000);
    expect(job.data.databaseId).to.equal(await readDatabaseId(stack.deps.dataSource));

    // Only the foreign worker runs: it keeps putting the job back, never running or failing it.
    await until(() => putBack >= 3, 10_000, 'the job to be put back three times');
    expect(await job.getState()).to.be.oneOf(['delayed', 'waiting', 'active']);
    const stored = await stack.deps.scoringQueue.getJob(String(job.id));
    expect(stored?.attemptsMade).to.equal(0);
    expect(stored?.failedReason ?? '').to.equal('');
    const warnings = logs.lines.filter((l) => l.level === 40);
    expect(warnings, 'one rate-limited warning for every put-back').to.have.length(1);
    expect(warnings[0].msg).to.contain('two stacks share one queue prefix').and.contain('QUEUE_PREFIX');
    expect(warnings[0]).to.include({ jobId: job.id, queue: QUEUE.scoring, queuePrefix: stack.config.redis.queuePrefix });

    // The owner's worker comes up and completes it: one attempt, the put-backs cost none.
    owner = await startWorkers(stack.config, createLogger(stack.config, 'owner'));
    const result = await awaitResult(job, stack.deps.scoringEvents, 15_000);
    expect(result.score.result?.profile).to.equal('dry-witted-colleague');
    const done = await stack.deps.scoringQueue.getJob(String(job.id));
    expect(await done?.getState()).to.equal('completed');
    expect(done?.attemptsMade).to.equal(1);
  });

  it('runs an unstamped job (an older web) as before', async function () {
    plain = new Queue(QUEUE.scoring, { connection: stack.deps.redis, prefix: stack.config.redis.queuePrefix });
    await owner?.close();
    owner = undefined;
    const job = await plain.add(SCORE_TEXT_JOB, { input: { text: 'happy to help, just send it over', deep: false, profile: 'dry-witted-colleague' } }, { jobId: 'foreign-unstamped-1' });
    const result = (await awaitResult(job, stack.deps.scoringEvents, 15_000)) as { score: { result?: { profile: string } } };
    expect(result.score.result?.profile).to.equal('dry-witted-colleague');
  });
});
