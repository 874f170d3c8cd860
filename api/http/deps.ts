import type { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../shared/config';
import type { Logger } from '../../shared/logger';
import type { Facilitator } from '../../shared/payments/facilitator-client';
import type { CapacityRunner } from '../health/capacity';
import type { FeedHub } from '../feed/feed-hub';
import type { CorpusScoreWriter } from '../free-score/corpus-scores';

/** Everything the API needs from outside, built by `api/server.ts` (or by tests). */
export interface AppDeps {
  config: AppConfig;
  logger: Logger;
  dataSource: DataSource;
  /** The producer (fail-fast) Redis connection the queues use; the health check pings it. */
  redis: Redis;
  scoringQueue: Queue;
  /** One QueueEvents per process for the `scoring` queue, ready before the server listens. */
  scoringEvents: QueueEvents;
  capacity: CapacityRunner;
  /** The `settlement` queue and its QueueEvents (paid calls wait for their settlement). */
  settlementQueue: Queue;
  settlementEvents: QueueEvents;
  /** The x402 facilitator that verifies payments before any work starts. */
  facilitator: Facilitator;
  /** This process's subscription to the live feed of settlements. */
  feed: FeedHub;
  /** Writes free corpus scores after the replies were sent; drained before the database closes. */
  corpusScores: CorpusScoreWriter;
}
