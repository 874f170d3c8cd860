import { Writable } from 'node:stream';
import type { ApiDeps } from '../../api/routes';
import type { CapacityResult } from '../../api/health/capacity';
import { createMetrics } from '../../api/http/metrics';
import { createAdmissionLimit } from '../../api/http/admission-limit';
import { loadConfig } from '../../shared/config';
import { DEFAULT_NETWORK_CONFIG } from '../../shared/operators/network-config';
import { createLogger } from '../../shared/logger';

/** An object that fails the test loudly if a unit test reaches it. */
function unused<T>(name: string): T {
  return new Proxy(
    {},
    {
      get(_target, prop) {
        if (prop === 'then') return undefined;
        throw new Error(`${name}.${String(prop)} was used by a unit test`);
      },
    },
  ) as T;
}

/** Dependencies with no network: config and logger are real, everything that does I/O is absent. */
export interface FakeDeps extends ApiDeps {
  /** Every JSON log line written so far. */
  logLines: string[];
  /** Iterations each capacity run was asked for. */
  capacityCalls: number[];
}

/**
 * Builds fake dependencies for `createApp`.
 * @param env - env-style config overrides
 * @param capacity - replaces the capacity runner's answer
 * @returns the deps plus captured logs and capacity calls
 */
export function fakeDeps(env: Record<string, string> = {}, capacity?: (iterations: number) => Promise<CapacityResult>): FakeDeps {
  const config = loadConfig({ LOG_LEVEL: 'info', TRUSTED_PROXY_HOPS: '1', HTTP_BODY_LIMIT_BYTES: '65536', ...env });
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const capacityCalls: number[] = [];
  return {
    config,
    logger: createLogger(config, 'test', sink),
    dataSource: unused('dataSource'),
    redis: unused('redis'),
    scoringQueue: unused('scoringQueue'),
    scoringEvents: unused('scoringEvents'),
    settlementQueue: unused('settlementQueue'),
    settlementEvents: unused('settlementEvents'),
    facilitator: unused('facilitator'),
    paidAdmission: createAdmissionLimit(config.payments.admission),
    // No Redis or database: the configuration stays the catalog's defaults.
    network: {
      current: () => DEFAULT_NETWORK_CONFIG,
      refresh: async () => DEFAULT_NETWORK_CONFIG,
      instance: 'web:fake',
      async announce() {},
      async close() {},
    },
    feed: unused('feed'),
    metrics: createMetrics(),
    // No database: the proof-card evidence is not recorded.
    evidence: {
      async began() {},
      async challenged() {},
      async retried() {},
      async verified() {},
      async settled() {},
      async delivered() {},
      async flush() {},
      async viewed() {},
    },
    queues: [],
    corpusScores: unused('corpusScores'),
    stress: unused('stress'),
    exports: unused('exports'),
    outbound: unused('outbound'),
    capacity: {
      async run(iterations) {
        capacityCalls.push(iterations);
        if (capacity) return capacity(iterations);
        return {
          iterations,
          characters_scored: iterations,
          scores: 1,
          scorer_version: 'fake',
          total_ms: 1,
          mean_ms: 1,
          p50_ms: 1,
          p95_ms: 1,
          p99_ms: 1,
          scores_per_second: 1000,
          threads_available: 1,
          estimated_scores_per_second: 1000,
          note: 'fake',
        };
      },
      async close() {},
    },
    logLines,
    capacityCalls,
  };
}
