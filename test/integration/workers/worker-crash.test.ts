import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Queue } from 'bullmq';
import { expect } from 'chai';
import { QUEUE } from '../../../jobs';
import { createLogger } from '../../../shared/logger';
import { startWorkers, type WorkerRuntime } from '../../../workers/main';
import { MAINTENANCE_HEARTBEAT_SCHEDULER } from '../../../workers/maintenance.processor';
import { TEST_REDIS_URL } from '../../helpers/redis';
import { startTestStack, type TestStack } from '../../helpers/stack';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** Starts `workers/main.ts` as a child process and resolves once it logs that its workers started. */
async function spawnWorker(stack: TestStack): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'workers', 'main.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: stack.config.db.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: stack.config.redis.queuePrefix,
      SCORING_THREADS: '1',
      WORKER_LOCK_DURATION_MS: '2000',
      WORKER_STALLED_INTERVAL_MS: '1000',
    },
  });
  child.stderr?.resume();
  await new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.includes('"workers started"')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited early with ${code}`)));
  });
  child.stdout?.resume();
  return child;
}

describe('a worker killed mid-job', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let child: ChildProcess | undefined;
  let rescuer: WorkerRuntime | undefined;

  before(async function () {
    stack = await startTestStack('crash', { worker: false, env: { JOB_WAIT_TIMEOUT_MS: '30000' } });
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
      expect(schedulers.map((s) => s.key)).to.deep.equal([MAINTENANCE_HEARTBEAT_SCHEDULER]);
    } finally {
      await maintenance.close();
    }
  });
});
