import type { Job } from 'bullmq';
import type { DataSource } from 'typeorm';
import type { Logger } from '../../shared/logger';
import { refreshEvidenceSnapshot } from '../../shared/proof-cards/evidence-store';
import { PRODUCTS } from '../../shared/products';

/** Name of the "proof-card refresh" job (a repeatable job of the maintenance queue). */
export const PROOF_CARD_REFRESH_JOB = 'refresh-proof-cards';

/** Fixed id of its job scheduler (upserted at every worker start, so never duplicated). */
export const PROOF_CARD_REFRESH_SCHEDULER = 'maintenance-proof-card-refresh';

/**
 * Rebuilds the proof cards' evidence snapshot from the counters over the metrics window. The
 * counters themselves are written by the web as the events happen; this only sums them, so a
 * run that fails or is skipped loses nothing (the next one, or the web on demand, catches up).
 * @param deps - DataSource, the window in days, logger
 * @returns the refresh processor
 */
export function createProofCardRefreshProcessor(deps: { dataSource: DataSource; windowDays: number; log: Logger }) {
  const productIds = Object.values(PRODUCTS).map((p) => p.id);
  return async function processProofCardRefresh(job: Job): Promise<{ generatedAt: string }> {
    const snapshot = await refreshEvidenceSnapshot(deps.dataSource, productIds, deps.windowDays);
    deps.log.debug({ jobId: job.id, generatedAt: snapshot.generated_at }, 'proof cards refreshed');
    return { generatedAt: snapshot.generated_at };
  };
}
