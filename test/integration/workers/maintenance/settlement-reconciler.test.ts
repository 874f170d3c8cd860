import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Queue, type Job } from 'bullmq';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { QUEUE } from '../../../../jobs';
import { createLogger } from '../../../../shared/logger';
import { createAuthorizationChainReader } from '../../../../shared/payments/authorization-chain-state';
import { recordSettleUnknown, reserveAuthorization, storeResult } from '../../../../shared/payments/authorization-store';
import { createFacilitator } from '../../../../shared/payments/facilitator-client';
import { maskIdentifier } from '../../../../shared/payments/mask';
import {
  createSettlementReconcilerProcessor,
  MAINTENANCE_SETTLEMENT_RECONCILER_JOB,
  MAINTENANCE_SETTLEMENT_RECONCILER_SCHEDULER,
} from '../../../../workers/maintenance/maintenance.processor';
import { listenToFeed, type FeedListener } from '../../../helpers/feed-listener';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { TEST_REDIS_URL } from '../../../helpers/redis';
import { signPayment, type SignedPayment } from '../../../helpers/x402-payments';
import type { LocalAccount } from 'viem';
import { simulateBody } from '../../../fixtures/builders';

const RESOURCE = `${PUBLIC_BASE_URL}/api/simulate`;
const BASIC = 50_000n;

const session = simulateBody;

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the settlement reconciler (maintenance queue)', function () {
  this.timeout(120_000);

  describe('scheduled by the worker', function () {
    let paid: PaidStack;
    let feed: FeedListener;

    before(async function () {
      paid = await startPaidStack('settlement-reconciler', { env: { JOB_BACKOFF_MS: '50', MAINTENANCE_EVERY_MS: '1000', X402_FACILITATOR_TIMEOUT_MS: '1500' } });
      feed = await listenToFeed(paid.stack.config.redis.queuePrefix);
      await paid.stack.truncate();
    });
    after(async function () {
      await feed?.close();
      await paid?.close();
    });

    it('is registered with a fixed id on the maintenance queue', async function () {
      const queue = new Queue(QUEUE.maintenance, { connection: { url: TEST_REDIS_URL }, prefix: paid.stack.config.redis.queuePrefix });
      try {
        const scheduler = await queue.getJobScheduler(MAINTENANCE_SETTLEMENT_RECONCILER_SCHEDULER);
        expect(scheduler).to.include({ name: MAINTENANCE_SETTLEMENT_RECONCILER_JOB, every: 1000 });
      } finally {
        await queue.close();
      }
    });

    it('writes the ledger row and the feed event of a charge whose client never came back, within its interval', async function () {
      const payer = paid.payers[0];
      const before = await paid.balanceOf(payer.address);
      const signed = await signPayment(payer, paid.requirement(Number(BASIC)), RESOURCE);
      paid.proxy.set('/settle', 'hang');
      const first = await paid.stack.http.post('/api/simulate').set('PAYMENT-SIGNATURE', signed.header).send(session(payer.address));
      expect(first.status, JSON.stringify(first.body)).to.equal(504);
      expect(first.body.error.code).to.equal('settlement_pending');
      expect(await paid.count('ledger_sessions')).to.equal(0);

      // The facilitator settles after its caller gave up; nobody is told, and the client never retries.
      expect(await paid.proxy.release('/settle')).to.be.at.least(1);
      expect(await paid.balanceOf(payer.address)).to.equal(before - BASIC);

      const ledger = await until('the reconciled ledger row', async () => {
        const rows = (await paid.stack.deps.dataSource.query(`SELECT transaction, result_id FROM ledger_sessions`)) as Array<{ transaction: string; result_id: string }>;
        return rows.length > 0 ? rows : undefined;
      });
      expect(ledger).to.have.length(1);
      expect(ledger[0].transaction).to.match(/^0x[0-9a-f]{64}$/);
      const [event] = await feed.waitFor(1);
      expect(event).to.include({ result_id: ledger[0].result_id, transaction: maskIdentifier(ledger[0].transaction) });
      const [row] = (await paid.stack.deps.dataSource.query(`SELECT status, transaction FROM payment_authorizations`)) as Array<{ status: string; transaction: string }>;
      expect(row).to.deep.equal({ status: 'settled', transaction: ledger[0].transaction });

      // Should the client come back after all, it gets the result of that one charge.
      paid.proxy.set('/settle', 'pass');
      const later = await paid.stack.http.post('/api/simulate').set('PAYMENT-SIGNATURE', signed.header).send(session(payer.address));
      expect(later.status, JSON.stringify(later.body)).to.equal(200);
      expect(decodePaymentResponseHeader(later.headers['payment-response']).transaction).to.equal(ledger[0].transaction);
      expect(await paid.balanceOf(payer.address)).to.equal(before - BASIC);
      expect(await paid.count('ledger_sessions')).to.equal(1);
      expect(feed.events).to.have.length(1);
    });
  });

  describe('one run', function () {
    let paid: PaidStack;
    let feed: FeedListener;

    before(async function () {
      paid = await startPaidStack('settlement-reconciler-run', { worker: false });
      feed = await listenToFeed(paid.stack.config.redis.queuePrefix);
      await paid.stack.truncate();
    });
    after(async function () {
      await feed?.close();
      await paid?.close();
    });

    const query = (sql: string, params: unknown[] = []) => paid.stack.deps.dataSource.query(sql, params);

    // A scored exact-EVM authorization, as a paid call leaves it before settlement.
    async function scored(payer: LocalAccount, options: { validBefore?: number } = {}): Promise<{ id: string; signed: SignedPayment }> {
      const requirement = paid.requirement(Number(BASIC));
      const signed = await signPayment(payer, requirement, RESOURCE, options);
      const { row } = await reserveAuthorization(paid.stack.deps.dataSource, {
        rail: 'exact-evm',
        network: requirement.network,
        asset: requirement.asset.toLowerCase(),
        payer: payer.address.toLowerCase(),
        nonce: signed.nonce.toLowerCase(),
        x402Version: 2,
        resource: '/api/simulate',
        product: 'simulate',
        tier: 'basic',
        amount: requirement.amount,
        requestHash: randomBytes(32).toString('hex'),
        payment: { rail: 'exact-evm', payload: signed.payload as unknown as Record<string, unknown>, requirements: requirement as unknown as Record<string, unknown> },
      });
      await storeResult(paid.stack.deps.dataSource, row, {
        response: { result_id: row.resultId },
        summary: { profile: 'grief-support-peer', score: 71, passed: true, scorerVersion: 'test' },
        calibrationText: null,
      });
      return { id: row.id, signed };
    }

    async function settleOnChain(signed: SignedPayment): Promise<string> {
      const facilitator = createFacilitator({ facilitatorUrl: paid.facilitator.url, facilitatorTimeoutMs: 10_000 });
      const settled = await facilitator.settle(signed.payload, paid.requirement(Number(BASIC)));
      expect(settled.success, JSON.stringify(settled)).to.equal(true);
      return settled.transaction;
    }

    async function state(id: string) {
      const [row] = (await query(
        `SELECT status, transaction, settle_unknown_since IS NOT NULL AS unknown, settle_failed_at IS NOT NULL AS failed, last_error FROM payment_authorizations WHERE id = $1`,
        [id],
      )) as Array<{ status: string; transaction: string | null; unknown: boolean; failed: boolean; last_error: string | null }>;
      return row;
    }

    it('records what moved, fails what expired unused, and leaves the rest (fresh, still valid, legacy SOL)', async function () {
      const [p1, p2, p3, p4, p5] = paid.payers;
      const now = Math.floor(Date.now() / 1000);
      const lost = await scored(p1); // settle answer lost: unknown, executed on chain
      const crashed = await scored(p2); // worker died mid-settlement: nothing recorded, left for long, executed
      const fresh = await scored(p3); // executed, but just scored: its own settlement job is still on it
      const expired = await scored(p4, { validBefore: now - 5 }); // unknown, never executed, expired
      const waiting = await scored(p5); // unknown, never executed, still valid
      for (const { id } of [lost, expired, waiting]) await recordSettleUnknown(paid.stack.deps.dataSource, id, 'facilitator_unavailable', true);
      await query(`UPDATE payment_authorizations SET updated_at = now() - interval '1 hour' WHERE id = $1`, [crashed.id]);
      await query(
        `INSERT INTO payment_authorizations (rail, network, asset, payer, nonce, x402_version, resource, product, tier, amount, request_hash, result_id, payment, status, updated_at)
         VALUES ('sol-transfer', 'solana', 'SOL', 'SoLPayer111111111111111111111111111111111111', $1, 1, '/api/simulate', 'simulate', 'basic', 1000, $2, gen_random_uuid(), '{}', 'scored', now() - interval '1 hour')`,
        [randomBytes(32).toString('hex'), randomBytes(32).toString('hex')],
      );
      const transactions = {
        lost: await settleOnChain(lost.signed),
        crashed: await settleOnChain(crashed.signed),
        fresh: await settleOnChain(fresh.signed),
      };

      const reconcile = createSettlementReconcilerProcessor({
        dataSource: paid.stack.deps.dataSource,
        redis: paid.stack.deps.redis,
        queuePrefix: paid.stack.config.redis.queuePrefix,
        chain: createAuthorizationChainReader(paid.facilitator.rpcUrl),
        staleAfterSeconds: 600,
        log: createLogger(paid.stack.config, 'test'),
      });
      expect(await reconcile({ id: 'run-1' } as Job)).to.deep.equal({ checked: 4, settled: 2, failed: 1, pending: 1 });

      expect(await state(lost.id)).to.deep.include({ status: 'settled', transaction: transactions.lost });
      expect(await state(crashed.id)).to.deep.include({ status: 'settled', transaction: transactions.crashed });
      expect(await state(fresh.id)).to.deep.include({ status: 'scored', transaction: null });
      expect(await state(expired.id)).to.deep.include({ status: 'scored', failed: true, last_error: 'authorization_expired' });
      expect(await state(waiting.id)).to.deep.include({ status: 'scored', unknown: true, failed: false });
      const ledger = (await query(`SELECT transaction FROM ledger_sessions ORDER BY transaction`)) as Array<{ transaction: string }>;
      expect(ledger.map((r) => r.transaction)).to.deep.equal([transactions.lost, transactions.crashed].sort());
      const events = await feed.waitFor(2);
      expect(events.map((e) => e.transaction).sort()).to.deep.equal([transactions.lost, transactions.crashed].map(maskIdentifier).sort());
      const [sol] = (await query(`SELECT status FROM payment_authorizations WHERE rail = 'sol-transfer'`)) as Array<{ status: string }>;
      expect(sol.status).to.equal('scored');

      // The next run has only the still-valid one left to look at, and writes nothing twice.
      expect(await reconcile({ id: 'run-2' } as Job)).to.deep.equal({ checked: 1, settled: 0, failed: 0, pending: 1 });
      expect(await paid.count('ledger_sessions')).to.equal(2);
      expect(feed.events).to.have.length(2);
    });

    it('does nothing without a chain reader (no EVM_RPC_URL)', async function () {
      await paid.stack.truncate();
      const row = await scored(paid.payers[5]);
      await recordSettleUnknown(paid.stack.deps.dataSource, row.id, 'facilitator_unavailable', true);
      await settleOnChain(row.signed);
      const reconcile = createSettlementReconcilerProcessor({
        dataSource: paid.stack.deps.dataSource,
        redis: paid.stack.deps.redis,
        queuePrefix: paid.stack.config.redis.queuePrefix,
        staleAfterSeconds: 600,
        log: createLogger(paid.stack.config, 'test'),
      });
      expect(await reconcile({ id: 'run-3' } as Job)).to.deep.equal({ checked: 0, settled: 0, failed: 0, pending: 0 });
      expect(await state(row.id)).to.deep.include({ status: 'scored', unknown: true });
    });
  });
});
