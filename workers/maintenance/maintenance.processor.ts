import type { Job } from 'bullmq';
import type { DataSource } from 'typeorm';
import type { Logger } from '../../shared/logger';
import { refundAbandonedRedemptions } from '../../shared/payments/bundle-refunds';

/** Name of the heartbeat job the maintenance scheduler emits. */
export const MAINTENANCE_HEARTBEAT_JOB = 'heartbeat';

/** Fixed id of the heartbeat job scheduler (upserted at every worker start, so never duplicated). */
export const MAINTENANCE_HEARTBEAT_SCHEDULER = 'maintenance-heartbeat';

/**
 * The maintenance heartbeat: a no-op placeholder on the schedule that later issues fill with
 * duel expiry (24 h), role-play room expiry (48 h), card renewals and proof-card refresh.
 * @param log - worker logger
 * @returns the heartbeat processor
 */
export function createHeartbeatProcessor(log: Logger) {
  return async function processHeartbeat(job: Job): Promise<{ ok: true; at: string }> {
    log.debug({ jobId: job.id, queue: job.queueName }, 'maintenance heartbeat');
    return { ok: true, at: new Date().toISOString() };
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
