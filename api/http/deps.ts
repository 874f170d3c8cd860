import type { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../shared/config';
import type { Logger } from '../../shared/logger';
import type { ServiceMetrics } from './metrics';
import type { PaymentEvidence } from './payment-evidence';
import type { NetworkConfigCache } from '../../shared/operators/network-config-cache';
import type { Facilitator } from '../../shared/payments/facilitator-client';
import type { AdmissionLimit } from './admission-limit';

/**
 * What every family may use, built by `api/server.ts` (or by tests). A family that needs a service
 * of its own (the feed hub, the capacity runner) asks for it beside these, and `api/routes.ts`
 * hands it over, so this core does not grow with each feature.
 */
export interface AppDeps {
  config: AppConfig;
  logger: Logger;
  dataSource: DataSource;
  /** The producer (fail-fast) Redis connection the queues use; the health check pings it. */
  redis: Redis;
  scoringQueue: Queue;
  /** One QueueEvents per process for the `scoring` queue, ready before the server listens. */
  scoringEvents: QueueEvents;
  /** The `settlement` queue and its QueueEvents (paid calls wait for their settlement). */
  settlementQueue: Queue;
  settlementEvents: QueueEvents;
  /** The x402 facilitator that verifies payments before any work starts. */
  facilitator: Facilitator;
  /** The gate per-call payments pass, first come first served, up to their stored result (see `createAdmissionLimit`). */
  paidAdmission: AdmissionLimit;
  /** This process's view of the runtime network configuration (the live simulate fee), kept current across processes. */
  network: NetworkConfigCache;
  /** This process's Prometheus metrics (`GET /metrics`). */
  metrics: ServiceMetrics;
  /** The proof-card evidence: the payment pipeline's events, counted as they happen. */
  evidence: PaymentEvidence;
  /**
   * The x402 `extensions` each paid product's 402 challenges declare (the Bazaar discovery
   * extension), by product id; `api/routes.ts` sets it from the operations it serves.
   */
  challengeExtensions?: ReadonlyMap<string, Record<string, unknown>>;
}
