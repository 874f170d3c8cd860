import type { Job } from 'bullmq';
import type { DataSource } from 'typeorm';
import { expireDuels } from '../../shared/duel/duel-store';
import type { Logger } from '../../shared/logger';

/** Name of the maintenance job that expires open duels past their expiry. */
export const EXPIRE_DUELS_JOB = 'expire-duels';

/** Fixed id of its job scheduler (upserted at every worker start, so never duplicated). */
export const EXPIRE_DUELS_SCHEDULER = 'maintenance-expire-duels';

/**
 * Expires every open duel whose 24 hours passed with no opponent (by the database's clock, the
 * same clock a join is checked against, so a join racing the sweep is decided by the row). The
 * challenger's leg stays on the ledger; nothing is refunded. Any number of workers may run it:
 * each duel is expired by exactly one UPDATE.
 * @param deps - DataSource, logger
 * @returns the sweep processor
 */
export function createExpireDuelsProcessor(deps: { dataSource: DataSource; log: Logger }) {
  return async function processExpireDuels(job: Job): Promise<{ expired: number; duel_ids: string[] }> {
    const ids = await expireDuels(deps.dataSource);
    if (ids.length > 0) deps.log.info({ jobId: job.id, expired: ids.length }, 'open duels expired');
    return { expired: ids.length, duel_ids: ids };
  };
}
