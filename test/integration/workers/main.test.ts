import { Queue, type Job } from 'bullmq';
import { expect } from 'chai';
import { QUEUE } from '../../../jobs';
import type { AppConfig } from '../../../shared/config';
import { createLogger } from '../../../shared/logger';
import { startWorkers, type WorkerRuntime } from '../../../workers/main';
import {
  MAINTENANCE_HEARTBEAT_JOB,
  MAINTENANCE_HEARTBEAT_SCHEDULER,
  MAINTENANCE_REDEMPTION_SWEEP_JOB,
  MAINTENANCE_REDEMPTION_SWEEP_SCHEDULER,
  MAINTENANCE_SETTLEMENT_RECONCILER_JOB,
  MAINTENANCE_SETTLEMENT_RECONCILER_SCHEDULER,
} from '../../../workers/maintenance/maintenance.processor';
import { PROOF_CARD_REFRESH_JOB, PROOF_CARD_REFRESH_SCHEDULER } from '../../../workers/maintenance/proof-card-refresh.processor';
import { EXPIRE_DUELS_JOB, EXPIRE_DUELS_SCHEDULER } from '../../../workers/duel/expire-duels.processor';
import { MAINTENANCE_ROLEPLAY_EXPIRY_JOB, MAINTENANCE_ROLEPLAY_EXPIRY_SCHEDULER } from '../../../workers/maintenance/roleplay-expiry.processor';
import { EMBED_SWEEP_JOB, EMBED_SWEEP_SCHEDULER } from '../../../workers/maintenance/embed-sweep.processor';
import { INSTALL_REVERIFY_JOB, INSTALL_REVERIFY_SCHEDULER } from '../../../workers/maintenance/install-reverify.processor';
import { PILOT_EXPIRY_JOB, PILOT_EXPIRY_SCHEDULER, PILOT_OFFER_JOB, PILOT_OFFER_SCHEDULER } from '../../../workers/maintenance/pilot-invitations.processor';
import { testConfig } from '../../helpers/config';
import { ensureTestDatabase } from '../../helpers/db';
import { queuePrefix } from '../../helpers/redis';

const EVERY_MS = 1_000;

async function waitFor(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** When each job of one name was scheduled for: the millis in its `repeat:<scheduler>:<millis>` id. */
function slotsOf(jobs: Job[], name: string, schedulerId: string): number[] {
  const ofName = jobs.filter((j) => j.name === name);
  const pattern = new RegExp(`^repeat:${schedulerId}:(\\d+)$`);
  expect(ofName.map((j) => j.id).filter((id) => !pattern.test(id ?? '')), `${name} jobs from another scheduler`).to.deep.equal([]);
  return ofName.map((j) => Number(pattern.exec(j.id!)![1])).sort((a, b) => a - b);
}

describe('startWorkers', function () {
  this.timeout(30_000);
  let config: AppConfig;
  const runtimes: WorkerRuntime[] = [];
  let maintenance: Queue;

  before(async function () {
    const url = await ensureTestDatabase();
    config = testConfig({ DATABASE_URL: url, QUEUE_PREFIX: queuePrefix('schedulers'), MAINTENANCE_EVERY_MS: String(EVERY_MS), PROOF_CARD_REFRESH_MS: String(EVERY_MS) });
    maintenance = new Queue(QUEUE.maintenance, { connection: { url: config.redis.url }, prefix: config.redis.queuePrefix });
  });
  after(async function () {
    for (const runtime of runtimes) await runtime.close();
    await maintenance?.close();
  });

  it('registers each maintenance schedule once when two workers start on the same queues', async function () {
    const log = createLogger(config, 'test');
    runtimes.push(await startWorkers(config, log));
    // Not at the same instant: a second schedule of the same job would run out of step with the first.
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS / 3));
    runtimes.push(await startWorkers(config, log));

    const schedulers = await maintenance.getJobSchedulers();
    expect(schedulers.map((s) => [s.key, s.name, s.every]).sort()).to.deep.equal(
      [
        [MAINTENANCE_HEARTBEAT_SCHEDULER, MAINTENANCE_HEARTBEAT_JOB, EVERY_MS],
        [MAINTENANCE_REDEMPTION_SWEEP_SCHEDULER, MAINTENANCE_REDEMPTION_SWEEP_JOB, EVERY_MS],
        [MAINTENANCE_SETTLEMENT_RECONCILER_SCHEDULER, MAINTENANCE_SETTLEMENT_RECONCILER_JOB, EVERY_MS],
        [PROOF_CARD_REFRESH_SCHEDULER, PROOF_CARD_REFRESH_JOB, EVERY_MS],
        [EXPIRE_DUELS_SCHEDULER, EXPIRE_DUELS_JOB, EVERY_MS],
        [MAINTENANCE_ROLEPLAY_EXPIRY_SCHEDULER, MAINTENANCE_ROLEPLAY_EXPIRY_JOB, EVERY_MS],
        [EMBED_SWEEP_SCHEDULER, EMBED_SWEEP_JOB, EVERY_MS],
        [INSTALL_REVERIFY_SCHEDULER, INSTALL_REVERIFY_JOB, EVERY_MS],
        [PILOT_EXPIRY_SCHEDULER, PILOT_EXPIRY_JOB, EVERY_MS],
        [PILOT_OFFER_SCHEDULER, PILOT_OFFER_JOB, EVERY_MS],
      ].sort(),
    );

    // Let each schedule fire a few times, then check what was produced: one job per interval. The
    // queue keeps its last 50 completed scheduled jobs, room for three runs of every schedule.
    const runs = 3 * schedulers.length;
    await waitFor(async () => (await maintenance.getCompletedCount()) >= runs, 20_000, `${runs} maintenance jobs to complete`);
    const jobs = await maintenance.getJobs(['completed', 'active', 'wait', 'delayed', 'prioritized', 'failed']);
    for (const [name, schedulerId] of [
      [MAINTENANCE_HEARTBEAT_JOB, MAINTENANCE_HEARTBEAT_SCHEDULER],
      [MAINTENANCE_REDEMPTION_SWEEP_JOB, MAINTENANCE_REDEMPTION_SWEEP_SCHEDULER],
      [MAINTENANCE_SETTLEMENT_RECONCILER_JOB, MAINTENANCE_SETTLEMENT_RECONCILER_SCHEDULER],
      [PROOF_CARD_REFRESH_JOB, PROOF_CARD_REFRESH_SCHEDULER],
      [EXPIRE_DUELS_JOB, EXPIRE_DUELS_SCHEDULER],
      [MAINTENANCE_ROLEPLAY_EXPIRY_JOB, MAINTENANCE_ROLEPLAY_EXPIRY_SCHEDULER],
      [EMBED_SWEEP_JOB, EMBED_SWEEP_SCHEDULER],
      [INSTALL_REVERIFY_JOB, INSTALL_REVERIFY_SCHEDULER],
      [PILOT_EXPIRY_JOB, PILOT_EXPIRY_SCHEDULER],
      [PILOT_OFFER_JOB, PILOT_OFFER_SCHEDULER],
    ]) {
      const slots = slotsOf(jobs, name, schedulerId);
      expect(slots.length, `${name} jobs`).to.be.at.least(3);
      const gaps = slots.slice(1).map((slot, i) => slot - slots[i]);
      expect(gaps.filter((gap) => gap < EVERY_MS), `${name} jobs less than ${EVERY_MS} ms apart`).to.deep.equal([]);
    }
    expect(await maintenance.getFailedCount()).to.equal(0);
  });
});
