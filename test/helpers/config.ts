import { loadConfig, type AppConfig } from '../../shared/config';
import { TEST_REDIS_URL } from './redis';

/**
 * The config of a test stack: silent logs, one scoring thread, one trusted proxy hop (so each test
 * picks its caller with X-Forwarded-For), short locks so a killed worker's job is retried quickly.
 * @param overrides - env-style overrides
 * @returns the frozen config
 */
export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    REDIS_URL: TEST_REDIS_URL,
    TRUSTED_PROXY_HOPS: '1',
    SCORING_THREADS: '1',
    SCORING_CONCURRENCY: '2',
    DATABASE_POOL_MAX: '5',
    JOB_WAIT_TIMEOUT_MS: '15000',
    JOB_BACKOFF_MS: '100',
    WORKER_LOCK_DURATION_MS: '2000',
    WORKER_STALLED_INTERVAL_MS: '1000',
    CALLER_HASH_KEY: 'test-caller-hash-key-0123456789',
    ...overrides,
  });
}
