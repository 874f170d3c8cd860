import type { Job } from 'bullmq';
import type { Logger } from '../shared/logger';

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
