import type { Job } from 'bullmq';
import type { DataSource } from 'typeorm';
import type { Logger } from '../../shared/logger';
import { expireInvitations, offerInvitations } from '../../shared/pilot/invitations';

/** Name of the job that expires pilot invitations not started in time and stops idle conversations. */
export const PILOT_EXPIRY_JOB = 'expire-pilot-invitations';
/** Fixed id of its job scheduler. */
export const PILOT_EXPIRY_SCHEDULER = 'maintenance-pilot-expiry';

/** Name of the job that offers pilot invitations to active participants from sponsors with quota. */
export const PILOT_OFFER_JOB = 'offer-pilot-invitations';
/** Fixed id of its job scheduler. */
export const PILOT_OFFER_SCHEDULER = 'maintenance-pilot-offer';

/**
 * Expires offered invitations past their deadline and stops idle conversations. Safe on any number
 * of workers: each row is flipped once by a conditional UPDATE.
 * @param deps - DataSource, logger
 * @returns the processor
 */
export function createPilotExpiryProcessor(deps: { dataSource: DataSource; log: Logger }) {
  return async function processPilotExpiry(job: Job): Promise<{ expired: number; stopped: number }> {
    const ended = await expireInvitations(deps.dataSource);
    if (ended.expired + ended.stopped > 0) deps.log.info({ jobId: job.id, ...ended }, 'pilot invitations ended');
    return ended;
  };
}

/**
 * Offers invitations (see `offerInvitations`: preferences, pauses and quotas are respected there).
 * @param deps - DataSource, logger
 * @returns the processor
 */
export function createPilotOfferProcessor(deps: { dataSource: DataSource; log: Logger }) {
  return async function processPilotOffer(job: Job): Promise<{ offered: number }> {
    const offered = await offerInvitations(deps.dataSource);
    if (offered > 0) deps.log.info({ jobId: job.id, offered }, 'pilot invitations offered');
    return { offered };
  };
}
