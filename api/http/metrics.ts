import type { Queue } from 'bullmq';
import type { Next } from 'koa';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { collectProcessMetrics } from '../../shared/process-metrics';
import type { AdmissionLimit } from './admission-limit';
import type { AppContext } from './context';

/** The BullMQ job states the queue depth gauge reports. */
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'failed', 'completed'] as const;

// Label values come from fixed code sets; anything else is folded into `other`, so no caller input
// (text, wallets, tokens) can become a label value or blow up the series count.
const CODE = /^[a-z0-9_-]{1,64}$/;
const safe = (value: string) => (CODE.test(value) ? value : 'other');

/** How a settlement the web process waited for ended. */
export type SettlementOutcome = 'settled' | 'failed' | 'pending';

/**
 * This process's Prometheus metrics (README "Operating"). One registry per process (per app in
 * tests), never prom-client's global one, so two stacks in one process do not collide.
 */
export interface ServiceMetrics {
  registry: Registry;
  /** A payment refused with a 402 and this reason (not the plain quote). */
  paymentRefused(reason: string): void;
  /** A settlement the request waited for ended this way. */
  settlement(outcome: SettlementOutcome): void;
  /** A free score was given (a round used). */
  freeRoundUsed(): void;
  /** Request durations, by method, route pattern and status (see {@link requestMetrics}). */
  requestDuration: Histogram<'method' | 'route' | 'status'>;
}

/**
 * Creates the metrics of a process: request durations by route and status, queue depth per queue
 * and state (read from Redis at scrape time), settlement outcomes, free rounds used, payments
 * refused by reason, the paid admission gate's limit, running and waiting calls, and Node's
 * default process metrics.
 * @param queues - the queues whose depth is reported
 * @param admission - the gate per-call payments pass (see `createAdmissionLimit`), read at scrape time
 * @returns the metrics
 */
export function createMetrics(queues: readonly Queue[] = [], admission?: AdmissionLimit): ServiceMetrics {
  const registry = new Registry();
  collectProcessMetrics(registry);
  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request durations by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  new Gauge({
    name: 'queue_jobs',
    help: 'Jobs per BullMQ queue and state, read at scrape time.',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const queue of queues) {
        // Redis away: the queue's series are left out of this scrape (its absence is the signal), and the rest is served.
        const counts = await queue.getJobCounts(...QUEUE_STATES).catch(() => undefined);
        if (!counts) continue;
        for (const state of QUEUE_STATES) this.set({ queue: queue.name, state }, counts[state] ?? 0);
      }
    },
  });
  if (admission) {
    new Gauge({
      name: 'paid_admission',
      help: 'The paid admission gate: its current limit, and the per-call payments running in it and waiting for it.',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        this.set({ state: 'limit' }, admission.limit);
        this.set({ state: 'active' }, admission.active);
        this.set({ state: 'waiting' }, admission.waiting);
      },
    });
  }
  const settlements = new Counter({ name: 'settlement_outcomes_total', help: 'Settlements paid calls waited for, by outcome.', labelNames: ['outcome'], registers: [registry] });
  const refusals = new Counter({ name: 'payments_refused_total', help: 'Payments refused with a 402, by reason.', labelNames: ['reason'], registers: [registry] });
  const freeRounds = new Counter({ name: 'free_rounds_used_total', help: 'Free scores given.', registers: [registry] });
  return {
    registry,
    paymentRefused: (reason) => refusals.inc({ reason: safe(reason) }),
    settlement: (outcome) => settlements.inc({ outcome }),
    freeRoundUsed: () => freeRounds.inc(),
    requestDuration,
  };
}

/**
 * Times every request into `http_request_duration_seconds`, up to its response's last byte. The
 * route label is the router's pattern (`/api/certificate/:tx_hash`), never the raw path, and
 * `unmatched` for a path no route serves: a path can carry anything a caller typed.
 * @param metrics - the process's metrics
 * @returns the middleware; it observes each request when its response closes, so an error is timed
 *   with the status it was answered with wherever the error handler sits
 */
export function requestMetrics(metrics: ServiceMetrics) {
  return async function timeRequest(ctx: AppContext, next: Next): Promise<void> {
    const end = metrics.requestDuration.startTimer();
    // Observed once the response is written (or the connection went first), off the caller's time.
    ctx.res.once('close', () => {
      const route = (ctx as AppContext & { _matchedRoute?: string | RegExp })._matchedRoute;
      end({ method: safe(ctx.method.toLowerCase()), route: typeof route === 'string' ? route : 'unmatched', status: String(ctx.status) });
    });
    await next();
  };
}
