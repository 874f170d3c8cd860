import type { Job } from 'bullmq';
import type { DataSource } from 'typeorm';
import type { Logger } from '../../shared/logger';
import type { NetworkConfigCache } from '../../shared/operators/network-config-cache';
import type { AuthorizationChainReader } from '../../shared/payments/authorization-chain-state';
import { findUnsettledAuthorizations, getAuthorization, recordSettleFailedForGood } from '../../shared/payments/authorization-store';
import { refundAbandonedRedemptions } from '../../shared/payments/bundle-refunds';
import { maskIdentifier } from '../../shared/payments/mask';
import { recordAndPublishSettlement, resolveSettlementOnChain, type SettlementRecorder } from '../../shared/payments/settlement-outcome';

/** Name of the heartbeat job the maintenance scheduler emits. */
export const MAINTENANCE_HEARTBEAT_JOB = 'heartbeat';

/** Fixed id of the heartbeat job scheduler (upserted at every worker start, so never duplicated). */
export const MAINTENANCE_HEARTBEAT_SCHEDULER = 'maintenance-heartbeat';

/** What a heartbeat returns: when it ran, and which runtime network configuration its worker held. */
export interface HeartbeatResult {
  ok: true;
  at: string;
  /** The `updated_at` of the configuration the worker held (null: the defaults). */
  networkConfigUpdatedAt: string | null;
}

/**
 * The maintenance heartbeat: a placeholder on the schedule that later issues fill with duel
 * expiry (24 h), role-play room expiry (48 h), card renewals and proof-card refresh. Its return
 * value (kept in the dashboard) names the network configuration the worker held when it ran.
 * @param deps - worker logger and the worker's network configuration cache
 * @returns the heartbeat processor
 */
export function createHeartbeatProcessor(deps: { log: Logger; network: Pick<NetworkConfigCache, 'current'> }) {
  return async function processHeartbeat(job: Job): Promise<HeartbeatResult> {
    deps.log.debug({ jobId: job.id, queue: job.queueName }, 'maintenance heartbeat');
    const updatedAt = deps.network.current().updatedAt;
    return { ok: true, at: new Date().toISOString(), networkConfigUpdatedAt: updatedAt ? updatedAt.toISOString() : null };
  };
}

/** Name of the job that gives back the credits of abandoned bundle redemptions. */
export const MAINTENANCE_REDEMPTION_SWEEP_JOB = 'refund-abandoned-redemptions';

/** Fixed id of its job scheduler. */
export const MAINTENANCE_REDEMPTION_SWEEP_SCHEDULER = 'maintenance-redemption-sweep';

/**
 * Gives back the credits of bundle redemptions left reserved longer than `olderThanSeconds` (a web
 * process died mid-session and no retry with the same Idempotency-Key finished them).
 * @param deps - DataSource, the age limit, logger
 * @returns the sweep processor
 */
export function createRedemptionSweepProcessor(deps: { dataSource: DataSource; olderThanSeconds: number; log: Logger }) {
  return async function processRedemptionSweep(job: Job): Promise<{ refunded: number }> {
    const refunded = await refundAbandonedRedemptions(deps.dataSource, deps.olderThanSeconds);
    if (refunded > 0) deps.log.info({ jobId: job.id, refunded }, 'abandoned bundle redemptions refunded');
    return { refunded };
  };
}

/** Name of the job that resolves unknown settlement outcomes from the chain. */
export const MAINTENANCE_SETTLEMENT_RECONCILER_JOB = 'reconcile-settlements';

/** Fixed id of its job scheduler. */
export const MAINTENANCE_SETTLEMENT_RECONCILER_SCHEDULER = 'maintenance-settlement-reconciler';

/**
 * Authorizations one reconciler run looks at, at most, oldest first (the next run takes the
 * rest). Rows that stay pending cannot crowd the others out for long: each is decided at the
 * latest when its authorization expires (`maxTimeoutSeconds`, at most an hour).
 */
const RECONCILE_BATCH = 500;

/** What one reconciler run did. */
export interface ReconcileReport {
  /** Authorizations looked at. */
  checked: number;
  /** Found executed on chain: ledger row written and published. */
  settled: number;
  /** Found never executable any more (expired unused): marked failed for good. */
  failed: number;
  /** Still undecided (unused and valid, or the chain could not be read). */
  pending: number;
}

/**
 * Resolves settlements whose outcome nobody knows, so that a charge reaches the ledger and the
 * live feed even when the client never comes back: every scored exact-EVM
 * authorization with an unknown settlement outcome, and every one left unsettled longer than
 * `staleAfterSeconds` (a worker that died mid-settlement recorded nothing). It only reads the
 * chain, never settles: an authorization executed on chain is recorded and published; one that
 * can never execute (unused, past validBefore by the chain's clock) is marked failed; the rest are
 * left for the next run or the client's retry. Legacy SOL transfers are final and never looked at.
 * Without a chain reader (no `EVM_RPC_URL`) it does nothing.
 * @param deps - DataSource, feed connection and prefix, chain reader, the age limit, logger
 * @returns the reconciler processor
 */
export function createSettlementReconcilerProcessor(deps: SettlementRecorder & { chain?: AuthorizationChainReader; staleAfterSeconds: number }) {
  return async function processSettlementReconciler(job: Job): Promise<ReconcileReport> {
    const report: ReconcileReport = { checked: 0, settled: 0, failed: 0, pending: 0 };
    const { chain } = deps;
    if (!chain) return report;
    const ids = await findUnsettledAuthorizations(deps.dataSource, deps.staleAfterSeconds, RECONCILE_BATCH);
    for (const id of ids) {
      const row = await getAuthorization(deps.dataSource, id);
      if (!row || row.status !== 'scored') continue;
      report.checked += 1;
      const log = deps.log.child({ jobId: job.id, authorizationId: id, payer: maskIdentifier(row.payer) });
      const verdict = await resolveSettlementOnChain(chain, row, log);
      if (verdict.outcome === 'settled') {
        const entry = await recordAndPublishSettlement({ ...deps, log }, id, verdict.transaction);
        if (entry) log.info({ product: entry.product, tier: entry.tier }, 'settlement reconciled from the chain');
        report.settled += 1;
      } else if (verdict.outcome === 'failed') {
        if (await recordSettleFailedForGood(deps.dataSource, id, verdict.reason)) log.info({ reason: verdict.reason }, 'settlement failed for good');
        report.failed += 1;
      } else {
        report.pending += 1;
      }
    }
    if (report.checked > 0) deps.log.debug({ jobId: job.id, ...report }, 'settlements reconciled');
    return report;
  };
}
