import type { Job } from 'bullmq';
import type { DataSource } from 'typeorm';
import type { Logger } from '../../shared/logger';
import { expireUnmatchedRooms } from '../../shared/roleplay/expire-rooms';

/** Name of the job that expires role-play rooms left unmatched for 48 hours. */
export const MAINTENANCE_ROLEPLAY_EXPIRY_JOB = 'expire-roleplay-rooms';

/** Fixed id of its job scheduler (upserted at every worker start, so never duplicated). */
export const MAINTENANCE_ROLEPLAY_EXPIRY_SCHEDULER = 'maintenance-roleplay-expiry';

/**
 * Expires the open rooms past their unmatched deadline. Safe on any number of workers and after a
 * restart: the database flips each room once (see `expireUnmatchedRooms`).
 * @param deps - DataSource, logger
 * @returns the expiry processor
 */
export function createRoleplayExpiryProcessor(deps: { dataSource: DataSource; log: Logger }) {
  return async function processRoleplayExpiry(job: Job): Promise<{ expired: number }> {
    const expired = await expireUnmatchedRooms(deps.dataSource);
    if (expired > 0) deps.log.info({ jobId: job.id, expired }, 'unmatched role-play rooms expired');
    return { expired };
  };
}
