import { randomBytes, randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { QueueEvents } from 'bullmq';
import { expect } from 'chai';
import { QUEUE } from '../../../../jobs';
import { EXPIRE_DUELS_SCHEDULER } from '../../../../workers/duel/expire-duels.processor';
import { startTestStack, type TestStack } from '../../../helpers/stack';
import { spawnWorker } from '../../../helpers/worker-process';

async function waitFor(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the duel expiry sweep on the maintenance queue, in worker processes', function () {
  this.timeout(90_000);
  let stack: TestStack;
  let events: QueueEvents;
  const children: ChildProcess[] = [];
  // Every completed expire-duels job, by job id (one per scheduled slot), with the duels it expired.
  const runs = new Map<string, string[]>();

  before(async function () {
    stack = await startTestStack('expire-duels', { worker: false });
    await stack.truncate();
    events = new QueueEvents(QUEUE.maintenance, { connection: { url: stack.config.redis.url }, prefix: stack.config.redis.queuePrefix });
    events.on('completed', ({ jobId, returnvalue }) => {
      if (!jobId.startsWith(`repeat:${EXPIRE_DUELS_SCHEDULER}:`)) return;
      const value = (typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue) as { duel_ids: string[] };
      expect(runs.has(jobId), `slot ${jobId} ran twice`).to.equal(false);
      runs.set(jobId, value.duel_ids);
    });
    await events.waitUntilReady();
  });
  after(async function () {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await events?.close();
    await stack?.close();
  });

  const query = <T>(sql: string, params: unknown[] = []) => stack.deps.dataSource.query(sql, params) as Promise<T>;

  // An open duel whose challenger paid, created `ageHours` ago (24 hours open).
  async function openDuel(ageHours: number): Promise<string> {
    const [auth] = await query<Array<{ id: string }>>(
      `INSERT INTO payment_authorizations (rail, network, asset, payer, nonce, x402_version, resource, product, tier, amount, request_hash, result_id, status, payment, transaction, settled_at)
       VALUES ('exact-evm', 'eip155:8453', '0xasset', '0x00000000000000000000000000000000000000aa', $1, 2, '/api/duel', 'duel', NULL, 75000, $2, $3, 'settled', '{}', $4, now())
       RETURNING id`,
      [`0x${randomBytes(32).toString('hex')}`, randomBytes(32).toString('hex'), randomUUID(), `0x${randomBytes(32).toString('hex')}`],
    );
    const [duel] = await query<Array<{ id: string }>>(
      `INSERT INTO duels (prompt_id, target_profile, challenger_payer, challenger_authorization_id, challenger_result_id, challenger_eq_score,
                          challenger_passed, challenger_dimensions, challenger_share, created_at, expires_at)
       VALUES (1, 'grief-support-peer', '0x00000000000000000000000000000000000000aa', $1, $2, 80, true, '{}', false,
               now() - make_interval(hours => $3), now() - make_interval(hours => $3) + interval '24 hours')
       RETURNING id`,
      [auth.id, randomUUID(), ageHours],
    );
    return duel.id;
  }

  const statuses = async (ids: string[]) =>
    (await query<Array<{ id: string; status: string }>>(`SELECT id, status FROM duels WHERE id = ANY($1::uuid[])`, [ids])).map((r) => r.status);
  const expiredByRuns = () => [...runs.values()].flat();

  it('expires each overdue duel exactly once with two workers, and keeps sweeping after both are stopped and one restarts', async function () {
    const overdue = [await openDuel(25), await openDuel(30), await openDuel(48)];
    const fresh = await openDuel(1);
    const env = { MAINTENANCE_EVERY_MS: '1000' };
    children.push(await spawnWorker(stack, env));
    children.push(await spawnWorker(stack, env));

    await waitFor(async () => (await statuses(overdue)).every((s) => s === 'expired'), 20_000, 'the overdue duels to expire');
    // A few more slots with both workers up: nothing is expired twice, the fresh duel stays open.
    await waitFor(async () => runs.size >= 4, 20_000, 'four sweeps');
    expect(expiredByRuns().sort()).to.deep.equal([...overdue].sort());
    expect(await statuses([fresh])).to.deep.equal(['open']);

    // Both workers go away (one crashes, one stops), then one starts again.
    const [crashed, stopped] = children;
    const exits = [new Promise((r) => crashed.once('exit', r)), new Promise((r) => stopped.once('exit', r))];
    crashed.kill('SIGKILL');
    stopped.kill('SIGTERM');
    await Promise.all(exits);
    const later = [await openDuel(25), await openDuel(100)];
    const sweepsBefore = runs.size;
    children.push(await spawnWorker(stack, env));

    await waitFor(async () => (await statuses(later)).every((s) => s === 'expired'), 20_000, 'the duels overdue after the restart to expire');
    await waitFor(async () => runs.size >= sweepsBefore + 2, 20_000, 'two more sweeps');
    expect(expiredByRuns().sort()).to.deep.equal([...overdue, ...later].sort());
    expect(await statuses([fresh])).to.deep.equal(['open']);
    const rows = await query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM duels WHERE status = 'expired' AND expired_at IS NOT NULL`);
    expect(rows[0].n).to.equal(5);
  });
});
