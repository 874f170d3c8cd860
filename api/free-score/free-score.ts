import { randomUUID } from 'node:crypto';
import type { Job, Queue, QueueEvents } from 'bullmq';
import type { DataSource } from 'typeorm';
import { awaitResult, enqueueScoreText, jobIdFor, type ScoreTextPayload, type ScoreTextResult } from '../../jobs';
import type { AppConfig } from '../../shared/config';
import { isDatabaseUnavailable } from '../../shared/db/db-errors';
import { AppError, UnavailableError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { NetworkConfigCache } from '../../shared/operators/network-config-cache';
import { scoreInputFrom } from '../http/score-input';
import type { ScoreRequest } from './free-score.schema';
import type { CorpusScoreWriter } from './corpus-scores';
import { releaseFreeRound, reserveFreeRound, type Reservation } from './free-rounds';
import { upgradeBlock } from './upgrade';

/** What a free score needs. */
export interface FreeScoreDeps {
  config: AppConfig;
  dataSource: DataSource;
  scoringQueue: Queue;
  scoringEvents: QueueEvents;
  corpusScores: CorpusScoreWriter;
  /** The runtime network configuration: the upgrade block quotes the live base simulation fee. */
  network: Pick<NetworkConfigCache, 'current'>;
}

/** A scored free round. */
export interface FreeScoreOutcome {
  result: ScoreTextResult;
  used: number;
  wishlistSubmitted: boolean;
}

// Engine field names -> request JSON pointers, for 422s from the scorer.
const FIELD_PATHS: Record<string, string> = {
  text: '/proposed_text',
  incoming: '/incoming_message',
  delaySeconds: '/response_delay_seconds',
  profile: '/target_profile',
};

function database<T>(work: Promise<T>): Promise<T> {
  return work.catch((err: unknown) => {
    if (isDatabaseUnavailable(err)) {
      throw new UnavailableError('database_unavailable', 'The database is unreachable; nothing was counted, retry later.', { cause: err });
    }
    throw err;
  });
}

/**
 * Runs one free-tier score. The scoring job is queued at once, while one SQL statement reserves a
 * lifetime round (race-free) and records the consented reply in the free corpus: the database
 * write is off the critical path. Only a reserved round gets its result; a refused request drops
 * its job if no worker took it yet (otherwise the score is computed and thrown away), so a caller
 * past the cap costs one speculative score at most per request, and never a round. After the
 * score, the corpus row's scores are queued for writing; if scoring fails, the round is given back
 * and the reply dropped. Consent was checked by the request schema.
 * @param deps - config, DataSource, queue and queue events, corpus score writer
 * @param callerHash - the caller key
 * @param request - the validated body
 * @param reqId - request id, carried into the job for log correlation
 * @param log - request logger
 * @returns the result and the caller's used count
 * @throws AppError free_cap_reached (429, with an `upgrade` block), wishlist_required (403),
 *   queue_unavailable / database_unavailable (503), job_timeout (504), scorer input codes (422)
 */
export async function runFreeScore(
  deps: FreeScoreDeps,
  callerHash: string,
  request: ScoreRequest,
  reqId: string,
  log: Logger,
): Promise<FreeScoreOutcome> {
  const { config } = deps;
  const rules = config.freeTier;
  const identity = { kind: 'free-score', round: randomUUID() } as const;
  const payload = { input: scoreInputFrom(request), reqId };
  const enqueued = enqueueScoreText(deps.scoringQueue, payload, identity, config.jobs.enqueueTimeoutMs);
  // Settled below on every path; until then a rejection must not count as unhandled.
  enqueued.catch(() => undefined);

  const draft = { text: request.proposed_text, profile: request.target_profile, delaySeconds: request.response_delay_seconds };
  let reservation: Reservation;
  try {
    reservation = await database(reserveFreeRound(deps.dataSource, callerHash, rules, draft, jobIdFor(identity)));
  } catch (err) {
    dropJob(enqueued);
    throw err;
  }
  if (!reservation.ok) {
    dropJob(enqueued);
    if (reservation.reason === 'cap_reached') {
      throw new AppError(429, 'free_cap_reached', `The free tier allows ${rules.scoreLimit} lifetime scores per caller; continue with the paid flow.`, {
        details: { limit: rules.scoreLimit, used: reservation.used },
        extra: { upgrade: upgradeBlock(config.payments, deps.network.current()) },
      });
    }
    throw new AppError(403, 'wishlist_required', `Submit one wishlist item to POST /api/wishlist before free score ${rules.wishlistRequiredFrom}.`, {
      details: { limit: rules.scoreLimit, used: reservation.used, wishlist_endpoint: '/api/wishlist' },
    });
  }
  try {
    const result = await awaitResult(await enqueued, deps.scoringEvents, config.jobs.waitTimeoutMs);
    deps.corpusScores.record(reservation.corpusEntryId, result.score);
    return { result, used: reservation.used, wishlistSubmitted: reservation.wishlistSubmitted };
  } catch (err) {
    // Scoring failed: the caller keeps the round. A failure to give it back is logged, not raised.
    await releaseFreeRound(deps.dataSource, callerHash, reservation.corpusEntryId).catch((releaseErr: unknown) =>
      log.error({ err: releaseErr }, 'free round not given back'),
    );
    if (err instanceof AppError && err.status === 422 && isFieldDetails(err.details)) {
      const path = FIELD_PATHS[err.details.field] ?? '';
      throw new AppError(422, err.code, err.message, { details: { fields: [{ path, rule: err.code, message: err.message }] } });
    }
    throw err;
  }
}

// A refused request's job: removed while it still waits; a worker that took it finishes it and
// nobody reads the result (BullMQ refuses to remove a locked job, which is fine).
function dropJob(enqueued: Promise<Job<ScoreTextPayload, ScoreTextResult>>): void {
  enqueued.then((job) => job.remove()).catch(() => undefined);
}

function isFieldDetails(details: unknown): details is { field: string } {
  return typeof details === 'object' && details !== null && typeof (details as { field?: unknown }).field === 'string';
}
