import { randomBytes, randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { Queue, type Job } from 'bullmq';
import { expect } from 'chai';
import { QUEUE } from '../../../../jobs';
import { MAINTENANCE_ROLEPLAY_EXPIRY_JOB, MAINTENANCE_ROLEPLAY_EXPIRY_SCHEDULER } from '../../../../workers/maintenance/roleplay-expiry.processor';
import { startTestStack, type TestStack } from '../../../helpers/stack';
import { spawnWorker } from '../../../helpers/worker-process';

const EVERY_MS = 1_000;

async function waitFor(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('the role-play room expiry on worker processes', function () {
  this.timeout(90_000);
  let stack: TestStack;
  let maintenance: Queue;
  const workers: ChildProcess[] = [];

  before(async function () {
    stack = await startTestStack('roleplay-expiry', { worker: false, env: { MAINTENANCE_EVERY_MS: String(EVERY_MS) } });
    maintenance = new Queue(QUEUE.maintenance, { connection: { url: stack.config.redis.url }, prefix: stack.config.redis.queuePrefix });
    await stack.truncate();
  });
  after(async function () {
    for (const child of workers) await stop(child);
    await maintenance?.obliterate({ force: true });
    await maintenance?.close();
    await stack?.close();
  });

  const query = (sql: string, params: unknown[] = []) => stack.deps.dataSource.query(sql, params) as Promise<Array<Record<string, unknown>>>;
  const hex = (bytes: number) => randomBytes(bytes).toString('hex');

  // An open room, opened `hoursAgo` hours ago (the clock advanced in the database).
  async function openRoom(hoursAgo: number): Promise<string> {
    const [auth] = await query(
      `INSERT INTO payment_authorizations (rail, network, asset, payer, nonce, x402_version, resource, product, tier, amount, request_hash, result_id, payment)
       VALUES ('exact-evm', 'eip155:8453', '0xasset', '0xpayer', $1, 2, '/api/roleplay', 'roleplay', NULL, 400000, $2, $3, '{}') RETURNING id`,
      [`0x${hex(32)}`, hex(32), randomUUID()],
    );
    const [room] = await query(
      `INSERT INTO roleplay_rooms (authorization_id, opener_wallet, profile, state, opener_secret_hash, opened_at, expires_at)
       VALUES ($1, '0xpayer', 'empathetic-counselor', 'open', $2, now() - make_interval(hours => $3), now() - make_interval(hours => $3) + interval '48 hours')
       RETURNING id`,
      [auth.id, hex(32), hoursAgo],
    );
    return room.id as string;
  }

  const statesOf = async (ids: string[]) => (await query(`SELECT state FROM roleplay_rooms WHERE id = ANY($1) ORDER BY state`, [ids])).map((r) => r.state);

  // Every retained expiry job: one per scheduled slot, and together they expired each room once.
  async function expiryJobs(): Promise<Array<Job<unknown, { expired: number }>>> {
    const jobs = (await maintenance.getJobs(['completed'])) as Array<Job<unknown, { expired: number }>>;
    return jobs.filter((j) => j.name === MAINTENANCE_ROLEPLAY_EXPIRY_JOB);
  }

  function slotsOf(jobs: Job[]): number[] {
    const pattern = new RegExp(`^repeat:${MAINTENANCE_ROLEPLAY_EXPIRY_SCHEDULER}:(\\d+)$`);
    return jobs.map((j) => Number(pattern.exec(j.id ?? '')?.[1])).sort((a, b) => a - b);
  }

  const slotOf = (job: Job) => Number(new RegExp(`^repeat:${MAINTENANCE_ROLEPLAY_EXPIRY_SCHEDULER}:(\\d+)$`).exec(job.id ?? '')?.[1]);
  const expiredAtOf = async (ids: string[]) => (await query(`SELECT expired_at FROM roleplay_rooms WHERE id = ANY($1) ORDER BY id`, [ids])).map((r) => (r.expired_at as Date).getTime());

  // Waits for the rooms to expire, then for two more runs of the job: those find nothing left,
  // and the rooms' expiry times do not move (each room was expired once, by one job).
  async function expectExpiredOnce(rooms: string[]): Promise<void> {
    await waitFor(async () => (await statesOf(rooms)).every((s) => s === 'expired'), 20_000, 'the overdue rooms to expire');
    const expiredAt = await expiredAtOf(rooms);
    const since = Math.max(...expiredAt);
    await waitFor(async () => (await expiryJobs()).filter((j) => slotOf(j) > since).length >= 2, 20_000, 'two more expiry runs');
    const later = (await expiryJobs()).filter((j) => slotOf(j) > since);
    expect(later.map((j) => j.returnvalue.expired)).to.deep.equal(later.map(() => 0));
    expect(await expiredAtOf(rooms)).to.deep.equal(expiredAt);
  }

  it('expires each overdue room once with two workers, and again after both were killed and one restarted', async function () {
    workers.push(await spawnWorker(stack, { MAINTENANCE_EVERY_MS: String(EVERY_MS) }));
    workers.push(await spawnWorker(stack, { MAINTENANCE_EVERY_MS: String(EVERY_MS) }));

    const due = [await openRoom(49), await openRoom(48), await openRoom(60)];
    const young = await openRoom(47);
    await expectExpiredOnce(due);
    const slots = slotsOf(await expiryJobs());
    expect(slots.length, 'expiry jobs retained').to.be.at.least(2);
    expect(slots.every(Number.isFinite), 'jobs from the fixed scheduler').to.equal(true);
    expect(slots.slice(1).filter((slot, i) => slot - slots[i] < EVERY_MS), 'two jobs in one interval').to.deep.equal([]);
    expect(await statesOf([young])).to.deep.equal(['open']);

    // Both workers die; the schedule lives in Redis and the next worker takes it up.
    for (const child of workers.splice(0)) await stop(child);
    const later = [await openRoom(50), await openRoom(48)];
    workers.push(await spawnWorker(stack, { MAINTENANCE_EVERY_MS: String(EVERY_MS) }));
    await expectExpiredOnce(later);
    expect(await statesOf([young])).to.deep.equal(['open']);
    expect((await maintenance.getJobSchedulers()).filter((s) => s.key === MAINTENANCE_ROLEPLAY_EXPIRY_SCHEDULER)).to.have.length(1);
    expect(await maintenance.getFailedCount()).to.equal(0);
  });
});
