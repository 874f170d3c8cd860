import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { QUEUE } from '../../../jobs';
import { createLogger } from '../../../shared/logger';
import { startWorkers, type WorkerRuntime } from '../../../workers/main';
import { TEST_REDIS_URL } from '../../helpers/redis';
import { startTestStack, type TestStack } from '../../helpers/stack';
import { startTcpRelay, type TcpRelay } from '../../helpers/tcp-relay';
import { spawnWorker } from '../../helpers/worker-process';

describe('a worker killed mid-job', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let relay: TcpRelay | undefined;
  let child: ChildProcess | undefined;
  let rescuer: WorkerRuntime | undefined;

  before(async function () {
    stack = await startTestStack('crash', { worker: false, env: { JOB_WAIT_TIMEOUT_MS: '30000' } });
    // The database is shared by every suite of the run: count this suite's rows only.
    await stack.truncate();
  });
  after(async function () {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await relay?.cut();
    await rescuer?.close();
    await stack?.close();
  });

  it('has its job retried by another worker, and the caller still gets the result', async function () {
    // The doomed worker reaches Redis through a relay that holds back its move of the job to
    // `completed`, so the job is provably still active when the worker is killed.
    const redis = new URL(TEST_REDIS_URL);
    relay = await startTcpRelay(
      { host: redis.hostname, port: Number(redis.port || 6379) },
      { holdFrom: `${stack.config.redis.queuePrefix}:${QUEUE.scoring}:completed` },
    );
    const viaRelay = new URL(TEST_REDIS_URL);
    viaRelay.hostname = '127.0.0.1';
    viaRelay.port = String(relay.port);
    child = await spawnWorker(stack, { REDIS_URL: viaRelay.toString() });
    const exited = new Promise((resolve) => child!.once('exit', resolve));

    const response = stack.http
      .post('/api/score')
      .set('X-Forwarded-For', '192.0.2.200')
      .send({ data_consent: true, proposed_text: 'I hear you, that sounds rough. Want to talk it through tonight?', target_profile: 'grief-support-peer' })
      .then((r) => r);
    const first = await Promise.race([relay.held.then(() => 'held' as const), response.then(() => 'answered' as const)]);
    expect(first, 'the worker was to be stopped before it could complete the job').to.equal('held');

    const active = await stack.deps.scoringQueue.getActive();
    expect(active.map((j) => j.name)).to.have.length(1);
    const jobId = active[0].id!;
    child.kill('SIGKILL');
    await exited;
    expect(await stack.deps.scoringQueue.getJobState(jobId)).to.equal('active');

    // A second worker's stalled-job check finds the dead worker's lock expired and runs the job again.
    rescuer = await startWorkers(stack.config, createLogger(stack.config, 'rescuer'));
    const res = await response;

    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.score.profile).to.equal('grief-support-peer');
    expect(res.body.free_tier.used).to.equal(1);
    const job = await stack.deps.scoringQueue.getJob(jobId);
    expect(await job?.getState()).to.equal('completed');
    expect(job?.stalledCounter).to.equal(1);
    const corpus = (await stack.deps.dataSource.query('SELECT count(*)::int AS n FROM free_corpus_entries')) as Array<{ n: number }>;
    expect(corpus[0].n).to.equal(1);
  });
});
