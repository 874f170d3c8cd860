import { Queue, QueueEvents } from 'bullmq';
import { expect } from 'chai';
import { awaitResult, bindQueueEvents, enqueueScoreText, jobIdFor, QUEUE, type ScoreTextPayload } from '../../../jobs';
import { AppError } from '../../../shared/errors';
import { startTestStack, type TestStack } from '../../helpers/stack';
import { until } from '../../helpers/until';

describe('scoring jobs across the queue', function () {
  let stack: TestStack;

  before(async function () {
    stack = await startTestStack('jobs');
  });
  after(async function () {
    await stack?.close();
  });

  const payload: ScoreTextPayload = { input: { text: 'sure thing, I can take a look after lunch', deep: false, profile: 'dry-witted-colleague' } };

  it('enqueues, scores on the worker thread pool and returns the result', async function () {
    const job = await enqueueScoreText(stack.deps.scoringQueue, payload, { kind: 'idempotency-key', key: 'jobs-1' }, 2000);
    const result = await awaitResult(job, stack.deps.scoringEvents, 10_000);
    expect(result.score.result?.profile).to.equal('dry-witted-colleague');
    expect(result.threadMs).to.be.a('number');
  });

  it('waits on many jobs at once without a listener-leak warning', async function () {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const jobs = await Promise.all(
        Array.from({ length: 25 }, (_, i) => enqueueScoreText(stack.deps.scoringQueue, payload, { kind: 'idempotency-key', key: `jobs-many-${i}` }, 2000)),
      );
      const results = await Promise.all(jobs.map((job) => awaitResult(job, stack.deps.scoringEvents, 20_000)));
      expect(results).to.have.length(25);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).to.not.include('MaxListenersExceededWarning');
  });

  it('makes one job per request identity', async function () {
    const identity = { kind: 'idempotency-key', key: 'jobs-2' } as const;
    const first = await enqueueScoreText(stack.deps.scoringQueue, payload, identity, 2000);
    const second = await enqueueScoreText(stack.deps.scoringQueue, { input: { ...payload.input, text: 'something else' } }, identity, 2000);
    expect(second.id).to.equal(first.id).and.to.equal(jobIdFor(identity));
    const result = await awaitResult(second, stack.deps.scoringEvents, 10_000);
    expect(result.score.result?.profile).to.equal('dry-witted-colleague');
  });

  it('decodes the scorer refusal into a 422 AppError, without retries', async function () {
    const job = await enqueueScoreText(stack.deps.scoringQueue, { input: { ...payload.input, text: '   ' } }, { kind: 'idempotency-key', key: 'jobs-3' }, 2000);
    const err = await awaitResult(job, stack.deps.scoringEvents, 10_000).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(AppError);
    expect(err).to.include({ status: 422, code: 'empty_text' });
    const stored = await stack.deps.scoringQueue.getJob(String(job.id));
    expect(stored?.attemptsMade).to.equal(1);
  });

  it('fails a malformed payload at once with a 500 job code', async function () {
    const job = await stack.deps.scoringQueue.add('score-text', { text: 42 }, { jobId: 'malformed-1' });
    const err = await awaitResult(job, stack.deps.scoringEvents, 10_000).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.include({ status: 500, code: 'invalid_job_payload' });
  });

  it('answers 504 job_timeout when no worker takes the job before the deadline', async function () {
    const idle = new Queue(QUEUE.scoring, { connection: stack.deps.redis, prefix: `${stack.config.redis.queuePrefix}-idle` });
    try {
      const job = await enqueueScoreText(idle, payload, { kind: 'idempotency-key', key: 'jobs-4' }, 2000);
      const err = await awaitResult(job, stack.deps.scoringEvents, 300).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).to.include({ status: 504, code: 'job_timeout' });
    } finally {
      await idle.obliterate({ force: true });
      await idle.close();
    }
  });

  describe('a job watched from before its add', function () {
    const listening = (jobId: string) =>
      ['completed', 'failed', 'duplicated', 'removed'].reduce((n, e) => n + stack.deps.scoringEvents.listenerCount(`${e}:${jobId}` as 'completed'), 0);

    it('finds the result of a job that finished before anyone waited, and stops listening', async function () {
      const job = await enqueueScoreText(stack.deps.scoringQueue, payload, { kind: 'idempotency-key', key: 'jobs-watch-1' }, 2000);
      await until(async () => (await job.getState()) === 'completed', 10_000, 'the job to complete');
      // The completion event has come and gone: only the watch kept it, and nothing listens.
      await until(() => listening(String(job.id)) === 0, 10_000, 'no listener left on the job');
      const started = Date.now();
      const result = await awaitResult(job, stack.deps.scoringEvents, 10_000);
      expect(result.score.result?.profile).to.equal('dry-witted-colleague');
      expect(Date.now() - started, 'answered from the watch, not near the deadline').to.be.below(1_000);
    });

    it('answers a second add of a long-finished job with the first result', async function () {
      const identity = { kind: 'idempotency-key', key: 'jobs-watch-2' } as const;
      const first = await enqueueScoreText(stack.deps.scoringQueue, payload, identity, 2000);
      const firstResult = await awaitResult(first, stack.deps.scoringEvents, 10_000);
      await until(() => listening(String(first.id)) === 0, 10_000, 'the first wait to let go of the job');
      const again = await enqueueScoreText(stack.deps.scoringQueue, payload, identity, 2000);
      const started = Date.now();
      expect(await awaitResult(again, stack.deps.scoringEvents, 10_000)).to.deep.equal(firstResult);
      expect(Date.now() - started, 'answered from the stored job, not at the deadline').to.be.below(2_000);
      expect(listening(String(again.id))).to.equal(0);
    });

    it('stops listening once a job nobody waits for is removed before it runs', async function () {
      const prefix = `${stack.config.redis.queuePrefix}-unworked`;
      const idle = new Queue(QUEUE.scoring, { connection: stack.deps.redis, prefix });
      // Read this fresh prefix's stream from its start: QueueEvents' default ('$') begins at its first
      // XREAD, which may come after the remove below (a flake seen in CI).
      const events = new QueueEvents(QUEUE.scoring, { connection: { url: stack.config.redis.url }, prefix, lastEventId: '0-0' });
      try {
        await events.waitUntilReady();
        bindQueueEvents(idle, events);
        const job = await enqueueScoreText(idle, payload, { kind: 'idempotency-key', key: 'jobs-watch-removed' }, 2000);
        const count = () => ['completed', 'failed', 'duplicated', 'removed'].reduce((n, e) => n + events.listenerCount(`${e}:${job.id}` as 'completed'), 0);
        expect(count()).to.equal(4);
        await job.remove();
        await until(() => count() === 0, 10_000, 'no listener left');
      } finally {
        await events.close();
        await idle.obliterate({ force: true });
        await idle.close();
      }
    });

    it('stops listening once a job nobody waits for finishes', async function () {
      const job = await enqueueScoreText(stack.deps.scoringQueue, payload, { kind: 'idempotency-key', key: 'jobs-watch-3' }, 2000);
      expect(listening(String(job.id))).to.equal(4);
      await until(() => listening(String(job.id)) === 0, 10_000, 'no listener left on the job');
      expect(await job.getState()).to.equal('completed');
    });
  });
});
