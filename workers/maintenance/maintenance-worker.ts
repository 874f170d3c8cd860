import { Queue, Worker, type ConnectionOptions, type Processor } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { QUEUE } from '../../jobs';
import { createStripeClient } from '../../shared/cards/stripe-client';
import type { AppConfig } from '../../shared/config';
import { connectionErrorListener, type Logger } from '../../shared/logger';
import type { NetworkConfigCache } from '../../shared/operators/network-config-cache';
import type { AuthorizationChainReader } from '../../shared/payments/authorization-chain-state';
import { createDispatcher } from '../dispatch';
import { createExpireDuelsProcessor, EXPIRE_DUELS_JOB, EXPIRE_DUELS_SCHEDULER } from '../duel/expire-duels.processor';
import type { ForeignJobGuard } from '../foreign-job';
import { watchWorker } from '../worker-events';
import { CARD_RECONCILER_JOB, CARD_RECONCILER_SCHEDULER, CARD_RENEWALS_JOB, CARD_RENEWALS_SCHEDULER, createCardReconcilerProcessor, createCardRenewalsProcessor } from './card-packs.processor';
import { createEmbedSweepProcessor, EMBED_SWEEP_JOB, EMBED_SWEEP_SCHEDULER } from './embed-sweep.processor';
import { createInstallReverifyProcessor, INSTALL_REVERIFY_JOB, INSTALL_REVERIFY_SCHEDULER } from './install-reverify.processor';
import { createOutboundGuard, DEFAULT_OUTBOUND_POLICY } from '../../shared/http/outbound-guard';
import {
  createHeartbeatProcessor,
  createRedemptionSweepProcessor,
  createSettlementReconcilerProcessor,
  MAINTENANCE_HEARTBEAT_JOB,
  MAINTENANCE_HEARTBEAT_SCHEDULER,
  MAINTENANCE_REDEMPTION_SWEEP_JOB,
  MAINTENANCE_REDEMPTION_SWEEP_SCHEDULER,
  MAINTENANCE_SETTLEMENT_RECONCILER_JOB,
  MAINTENANCE_SETTLEMENT_RECONCILER_SCHEDULER,
} from './maintenance.processor';
import { createPilotExpiryProcessor, createPilotOfferProcessor, PILOT_EXPIRY_JOB, PILOT_EXPIRY_SCHEDULER, PILOT_OFFER_JOB, PILOT_OFFER_SCHEDULER } from './pilot-invitations.processor';
import { createProofCardRefreshProcessor, PROOF_CARD_REFRESH_JOB, PROOF_CARD_REFRESH_SCHEDULER } from './proof-card-refresh.processor';
import { createRoleplayExpiryProcessor, MAINTENANCE_ROLEPLAY_EXPIRY_JOB, MAINTENANCE_ROLEPLAY_EXPIRY_SCHEDULER } from './roleplay-expiry.processor';

/** What the maintenance jobs need from the worker process. */
export interface MaintenanceDeps {
  config: AppConfig;
  dataSource: DataSource;
  /** The producer connection the settlement reconciler publishes feed events on. */
  feedRedis: Redis;
  network: NetworkConfigCache;
  chain?: AuthorizationChainReader;
  connection: ConnectionOptions;
  foreignJobs: ForeignJobGuard;
  log: Logger;
}

/** One repeatable job: its scheduler id, how often it runs and its processor. */
interface Scheduled {
  scheduler: string;
  everyMs: number;
  process: Processor;
}

// Completed runs kept: a few of each schedule (the count is per queue, over every schedule).
const KEEP = { removeOnComplete: { count: 50 }, removeOnFail: { count: 50 } };

// Every repeatable job of the maintenance queue, by job name. The card jobs are there only where a
// card processor is configured.
function maintenanceJobs(deps: MaintenanceDeps): { jobs: Record<string, Scheduled>; unscheduled: string[] } {
  const { config, dataSource, log } = deps;
  const every = config.scoring.maintenanceEveryMs;
  const jobs: Record<string, Scheduled> = {
    [MAINTENANCE_HEARTBEAT_JOB]: { scheduler: MAINTENANCE_HEARTBEAT_SCHEDULER, everyMs: every, process: createHeartbeatProcessor({ log, network: deps.network }) },
    [MAINTENANCE_REDEMPTION_SWEEP_JOB]: {
      scheduler: MAINTENANCE_REDEMPTION_SWEEP_SCHEDULER,
      everyMs: every,
      process: createRedemptionSweepProcessor({ dataSource, olderThanSeconds: config.payments.abandonedRedemptionSeconds, log }),
    },
    [MAINTENANCE_SETTLEMENT_RECONCILER_JOB]: {
      scheduler: MAINTENANCE_SETTLEMENT_RECONCILER_SCHEDULER,
      everyMs: every,
      process: createSettlementReconcilerProcessor({
        dataSource,
        redis: deps.feedRedis,
        queuePrefix: config.redis.queuePrefix,
        chain: deps.chain,
        staleAfterSeconds: config.payments.reconcileAfterSeconds,
        log,
      }),
    },
    [PROOF_CARD_REFRESH_JOB]: {
      scheduler: PROOF_CARD_REFRESH_SCHEDULER,
      everyMs: config.proofCards.refreshEveryMs,
      process: createProofCardRefreshProcessor({ dataSource, windowDays: config.proofCards.windowDays, log }),
    },
    [EXPIRE_DUELS_JOB]: { scheduler: EXPIRE_DUELS_SCHEDULER, everyMs: every, process: createExpireDuelsProcessor({ dataSource, log }) },
    [MAINTENANCE_ROLEPLAY_EXPIRY_JOB]: { scheduler: MAINTENANCE_ROLEPLAY_EXPIRY_SCHEDULER, everyMs: every, process: createRoleplayExpiryProcessor({ dataSource, log }) },
    [EMBED_SWEEP_JOB]: { scheduler: EMBED_SWEEP_SCHEDULER, everyMs: every, process: createEmbedSweepProcessor({ dataSource, log }) },
    // Runs at every tick and fetches only the installs due (see REVERIFY_INTERVAL_SECONDS).
    [INSTALL_REVERIFY_JOB]: {
      scheduler: INSTALL_REVERIFY_SCHEDULER,
      everyMs: every,
      process: createInstallReverifyProcessor({ dataSource, outbound: createOutboundGuard({ ...DEFAULT_OUTBOUND_POLICY, ...config.outbound }), log }),
    },
    [PILOT_EXPIRY_JOB]: { scheduler: PILOT_EXPIRY_SCHEDULER, everyMs: every, process: createPilotExpiryProcessor({ dataSource, log }) },
    [PILOT_OFFER_JOB]: { scheduler: PILOT_OFFER_SCHEDULER, everyMs: every, process: createPilotOfferProcessor({ dataSource, log }) },
  };
  const stripe = createStripeClient(config.cards);
  if (!stripe) return { jobs, unscheduled: [CARD_RENEWALS_SCHEDULER, CARD_RECONCILER_SCHEDULER] };
  const cardDeps = { dataSource, stripe, log };
  jobs[CARD_RENEWALS_JOB] = { scheduler: CARD_RENEWALS_SCHEDULER, everyMs: config.cards.maintenanceEveryMs, process: createCardRenewalsProcessor(cardDeps) };
  jobs[CARD_RECONCILER_JOB] = {
    scheduler: CARD_RECONCILER_SCHEDULER,
    everyMs: config.cards.maintenanceEveryMs,
    process: createCardReconcilerProcessor({ ...cardDeps, lookbackSeconds: config.cards.reconcileLookbackSeconds }),
  };
  return { jobs, unscheduled: [] };
}

/**
 * Registers every repeatable job on the `maintenance` queue and starts its worker. Schedules are
 * upserted at every start with fixed ids, so any number of workers registers each once; a schedule
 * this process cannot run (the card jobs without a card processor) is removed, since one left by an
 * earlier configured start would emit jobs no worker here can take.
 * @param deps - config, database, Redis, the runtime network config, the chain reader, logger
 * @returns the worker and the queue its schedules live on (close both)
 */
export async function startMaintenanceWorker(deps: MaintenanceDeps): Promise<{ worker: Worker; queue: Queue }> {
  const { config, connection, log } = deps;
  const prefix = config.redis.queuePrefix;
  const queue = new Queue(QUEUE.maintenance, { connection, prefix });
  queue.on('error', connectionErrorListener(log, { queue: QUEUE.maintenance }, 'queue error'));
  const { jobs, unscheduled } = maintenanceJobs(deps);
  for (const [name, job] of Object.entries(jobs)) {
    await queue.upsertJobScheduler(job.scheduler, { every: job.everyMs }, { name, data: {}, opts: KEEP });
  }
  for (const scheduler of unscheduled) await queue.removeJobScheduler(scheduler);
  const handlers = Object.fromEntries(Object.entries(jobs).map(([name, job]) => [name, job.process]));
  const worker = new Worker(QUEUE.maintenance, createDispatcher(QUEUE.maintenance, handlers, deps.foreignJobs), { connection, prefix, concurrency: 1 });
  return { worker: watchWorker(worker, log, QUEUE.maintenance), queue };
}
