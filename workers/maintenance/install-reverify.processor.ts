import type { Job } from 'bullmq';
import type { DataSource } from 'typeorm';
import { checkLiveInstall } from '../../shared/catalog/install-site';
import { installsDueForCheck, revokeInstall, touchInstall } from '../../shared/catalog/install-store';
import { OutboundRefusal, type OutboundGuard } from '../../shared/http/outbound-guard';
import type { Logger } from '../../shared/logger';

/** Name of the job that checks verified installs again. */
export const INSTALL_REVERIFY_JOB = 'reverify-catalog-installs';

/** Fixed id of its job scheduler. */
export const INSTALL_REVERIFY_SCHEDULER = 'maintenance-install-reverify';

/** How long a verified install goes between two checks of its site. */
export const REVERIFY_INTERVAL_SECONDS = 6 * 3600;

/** The most sites one run fetches (one after the other, each bounded by the guard's 5 s). */
export const REVERIFY_BATCH = 20;

// A site that answered, but without the challenge or the snippet, lost its proof; so did one whose
// name now leads to an address the guard refuses. A site that did not answer (timeout,
// unreachable) keeps its badge until a later run reaches it.
const TRANSIENT = new Set(['timeout', 'unreachable']);

/**
 * Checks verified installs again, each at most every {@link REVERIFY_INTERVAL_SECONDS}: the
 * challenge must still be published and the snippet still on the live page, fetched through the
 * outbound guard; otherwise the install's badge is revoked.
 * @param deps - DataSource, the outbound guard and logger
 * @returns the processor
 */
export function createInstallReverifyProcessor(deps: { dataSource: DataSource; outbound: OutboundGuard; log: Logger }) {
  return async function processInstallReverify(job: Job): Promise<{ checked: number; revoked: number; unreachable: number }> {
    const due = await installsDueForCheck(deps.dataSource, REVERIFY_INTERVAL_SECONDS, REVERIFY_BATCH);
    let revoked = 0;
    let unreachable = 0;
    for (const install of due) {
      let reason: string | undefined;
      try {
        const found = await checkLiveInstall(deps.outbound, { ...install, pageUrl: install.pageUrl as string });
        if (!found.ok) reason = found.reason;
      } catch (err) {
        if (!(err instanceof OutboundRefusal)) throw err;
        if (TRANSIENT.has(err.reason)) {
          unreachable += 1;
          continue;
        }
        reason = err.reason;
      }
      if (reason === undefined) {
        await touchInstall(deps.dataSource, install.id);
      } else if (await revokeInstall(deps.dataSource, install.id, reason)) {
        revoked += 1;
        deps.log.info({ jobId: job.id, workflowId: install.id, reason }, 'catalog install revoked');
      }
    }
    return { checked: due.length, revoked, unreachable };
  };
}
