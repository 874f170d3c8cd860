import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Job } from 'bullmq';
import { createLogger } from '../../../../shared/logger';
import { createRedemptionSweepProcessor } from '../../../../workers/maintenance/maintenance.processor';
import { startTestStack, type TestStack } from '../../../helpers/stack';

describe('the maintenance sweep of abandoned bundle redemptions', function () {
  let stack: TestStack;

  before(async function () {
    stack = await startTestStack('redemption-sweep', { worker: false });
  });
  after(async function () {
    await stack?.close();
  });
  beforeEach(async function () {
    await stack.truncate();
  });

  const hex = (bytes: number) => randomBytes(bytes).toString('hex');
  const query = (sql: string, params: unknown[] = []) => stack.deps.dataSource.query(sql, params);

  // A settled-looking purchase with `remaining` of 10 credits left.
  async function bundle(remaining: number): Promise<string> {
    const [auth] = (await query(
      `INSERT INTO payment_authorizations (rail, network, asset, payer, nonce, x402_version, resource, product, tier, amount, request_hash, result_id, payment)
       VALUES ('exact-evm', 'eip155:8453', '0xasset', '0xpayer', $1, 2, '/api/bundle', 'bundle', 'bundle', 42500000, $2, $3, '{}')
       RETURNING id`,
      [`0x${hex(32)}`, hex(32), randomUUID()],
    )) as Array<{ id: string }>;
    const [row] = (await query(
      `INSERT INTO bundles (wallet, plan, source, credits_total, credits_remaining, authorization_id)
       VALUES ('0xpayer', 'bundle', 'purchase', 10, $1, $2) RETURNING id`,
      [remaining, auth.id],
    )) as Array<{ id: string }>;
    return row.id;
  }

  async function redemption(bundleId: string, ageSeconds: number, status: 'reserved' | 'completed' = 'reserved'): Promise<void> {
    await query(
      `INSERT INTO bundle_redemptions (bundle_id, request_hash, result_id, status, response, created_at, completed_at)
       VALUES ($1, $2, $3, $4, $5, now() - make_interval(secs => $6), $7)`,
      [bundleId, hex(32), randomUUID(), status, status === 'completed' ? '{}' : null, ageSeconds, status === 'completed' ? new Date() : null],
    );
  }

  async function creditsOf(bundleId: string): Promise<number> {
    const [row] = (await query(`SELECT credits_remaining FROM bundles WHERE id = $1`, [bundleId])) as Array<{ credits_remaining: number }>;
    return row.credits_remaining;
  }

  it('gives back the credits of redemptions reserved too long, and nothing else', async function () {
    const a = await bundle(5);
    const b = await bundle(7);
    await redemption(a, 3600);
    await redemption(a, 1200);
    await redemption(a, 30); // still running
    await redemption(a, 3600, 'completed'); // delivered: its credit was used
    await redemption(b, 900);
    const sweep = createRedemptionSweepProcessor({ dataSource: stack.deps.dataSource, olderThanSeconds: 600, log: createLogger(stack.config, 'test') });

    expect(await sweep({ id: 'sweep-1' } as Job)).to.deep.equal({ refunded: 3 });
    expect(await creditsOf(a)).to.equal(7);
    expect(await creditsOf(b)).to.equal(8);
    const left = (await query(`SELECT status, count(*)::int AS n FROM bundle_redemptions GROUP BY status ORDER BY status`)) as Array<{ status: string; n: number }>;
    expect(left).to.deep.equal([
      { status: 'completed', n: 1 },
      { status: 'reserved', n: 1 },
    ]);

    // A second sweep (or one on another worker) finds nothing more to give back.
    expect(await sweep({ id: 'sweep-2' } as Job)).to.deep.equal({ refunded: 0 });
    expect(await creditsOf(a)).to.equal(7);
  });

  it('refunds each abandoned redemption once under concurrent sweeps', async function () {
    const a = await bundle(0);
    for (let i = 0; i < 6; i++) await redemption(a, 3600);
    const sweep = createRedemptionSweepProcessor({ dataSource: stack.deps.dataSource, olderThanSeconds: 600, log: createLogger(stack.config, 'test') });
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => sweep({ id: `s${i}` } as Job)));
    expect(results.reduce((sum, r) => sum + r.refunded, 0)).to.equal(6);
    expect(await creditsOf(a)).to.equal(6);
  });
});
