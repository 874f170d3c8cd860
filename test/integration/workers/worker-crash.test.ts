import type { ChildProcess } from 'node:child_process';
import { Queue } from 'bullmq';
import { expect } from 'chai';
import { QUEUE } from '../../../jobs';
import { createLogger } from '../../../shared/logger';
import { startWorkers, type WorkerRuntime } from '../../../workers/main';
import {
  MAINTENANCE_HEARTBEAT_SCHEDULER,
  MAINTENANCE_REDEMPTION_SWEEP_SCHEDULER,
  MAINTENANCE_SETTLEMENT_RECONCILER_SCHEDULER,
} from '../../../workers/maintenance.processor';
import { startTestStack, type TestStack } from '../../helpers/stack';
import { spawnWorker } from '../../helpers/worker-process';

describe('a worker killed mid-job', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let child: ChildProcess | undefined;
  let rescuer: WorkerRuntime | undefined;

  before(async function () {
    stack = await startTestStack('crash', { worker: false, env: { JOB_WAIT_TIMEOUT_MS: '30000' } });
    // The database is shared by every suite of the run: count this suite's rows only.
    await stack.truncate();
  });
  after(async function () {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await rescuer?.close();
    await stack?.close();
  });

  it('has its job retried by another worker, and the caller still gets the result', async function () {
    child = await spawnWorker(stack);
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    let activeJobId: string | undefined;
    const killed = new Promise<void>((resolve) => {
      stack.deps.scoringEvents.once('active', ({ jobId }) => {
        activeJobId = jobId;
        child!.kill('SIGKILL');
        resolve();
      });
    });

    const response = stack.http
      .post('/api/score')
      .set('X-Forwarded-For', '192.0.2.200')
      .send({ data_consent: true, proposed_text: 'I hear you, that sounds rough. Want to talk it through tonight?', target_profile: 'grief-support-peer' })
      .then((r) => r);

    await killed;
    await exited;
    const stateAfterKill = await stack.deps.scoringQueue.getJobState(activeJobId!);

    // A second worker's stalled-job check finds the dead worker's lock expired and runs the job again.
    rescuer = await startWorkers(stack.config, createLogger(stack.config, 'rescuer'));
    const res = await response;

    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.score.profile).to.equal('grief-support-peer');
    expect(res.body.free_tier.used).to.equal(1);
    const job = await stack.deps.scoringQueue.getJob(activeJobId!);
    expect(await job?.getState()).to.equal('completed');
    if (stateAfterKill === 'active') expect(job?.stalledCounter ?? 0).to.be.at.least(1);
    const corpus = (await stack.deps.dataSource.query('SELECT count(*)::int AS n FROM free_corpus_entries')) as Array<{ n: number }>;
    expect(corpus[0].n).to.equal(1);
  });

  it('registers the maintenance job scheduler once, whatever the number of worker starts', async function () {
    const maintenance = new Queue(QUEUE.maintenance, { connection: stack.deps.redis, prefix: stack.config.redis.queuePrefix });
    try {
      const schedulers = await maintenance.getJobSchedulers();
      expect(schedulers.map((s) => s.key).sort()).to.deep.equal(
        [MAINTENANCE_HEARTBEAT_SCHEDULER, MAINTENANCE_REDEMPTION_SWEEP_SCHEDULER, MAINTENANCE_SETTLEMENT_RECONCILER_SCHEDULER].sort(),
      );
    } finally {
      await maintenance.close();
    }
  });
});
