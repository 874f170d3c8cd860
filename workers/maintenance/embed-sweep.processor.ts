import type { Job } from 'bullmq';
import type { DataSource } from 'typeorm';
import type { Logger } from '../../shared/logger';

/** Name of the job that deletes embedded-check answers whose replay window ended. */
export const EMBED_SWEEP_JOB = 'sweep-embed-checks';

/** Fixed id of its job scheduler. */
export const EMBED_SWEEP_SCHEDULER = 'maintenance-embed-sweep';

/**
 * Deletes stored embedded-check answers past their key's replay window (86400 s from the key's
 * timestamp). Their keys are refused as expired by then, so no replay can need them, and the
 * answers (codes and offsets of a text) are not kept longer than they serve.
 * @param deps - DataSource and logger
 * @returns the sweep processor
 */
export function createEmbedSweepProcessor(deps: { dataSource: DataSource; log: Logger }) {
  return async function processEmbedSweep(job: Job): Promise<{ deleted: number }> {
    const result = (await deps.dataSource.query(`DELETE FROM embed_checks WHERE expires_at < now()`)) as [unknown[], number];
    const deleted = result[1];
    if (deleted > 0) deps.log.info({ jobId: job.id, deleted }, 'expired embedded checks deleted');
    return { deleted };
  };
}
