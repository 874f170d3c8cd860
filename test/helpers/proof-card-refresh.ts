import type { Queue } from 'bullmq';
import { PROOF_CARD_REFRESH_JOB } from '../../workers/maintenance/proof-card-refresh.processor';

/**
 * Runs the proof-card refresh job through the real maintenance queue and waits for it, so a test
 * reads the cards' evidence as the worker last rebuilt it.
 * @param queue - the stack's maintenance queue
 */
export async function runProofCardRefresh(queue: Queue): Promise<void> {
  const job = await queue.add(PROOF_CARD_REFRESH_JOB, {});
  for (let i = 0; i < 300; i++) {
    const state = await job.getState();
    if (state === 'completed') return;
    if (state === 'failed') throw new Error(`proof-card refresh failed: ${(await queue.getJob(job.id!))?.failedReason}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the proof-card refresh job did not run');
}
