import type { OperationSpec } from '../http/openapi/operation';
import { COMMON_RESPONSES, errorBodySchema } from '../http/responses.schema';
import { healthCapacityQuerySchema } from './health-capacity.schema';

const healthSchema = {
  type: 'object',
  required: ['status', 'checks'],
  properties: {
    status: { const: 'ok' },
    checks: { type: 'object', properties: { redis: { enum: ['ok', 'down'] }, postgres: { enum: ['ok', 'down'] } } },
  },
};

/** OpenAPI specs of the health routes. */
export const healthOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/healthz',
    operationId: 'getHealth',
    summary: 'Health of the API and its dependencies (Redis, PostgreSQL).',
    tags: ['health'],
    responses: {
      '200': { description: 'Every dependency answers.', schema: healthSchema },
      '503': { description: 'A dependency is down; the message and details.failing name it.', schema: errorBodySchema },
    },
  },
  {
    method: 'get',
    path: '/api/health-capacity',
    operationId: 'getHealthCapacity',
    summary: 'Local CPU benchmark of the scorer (no database, ledger or network use).',
    description:
      'Scores a fixed set of sample replies (short and long, with and without timing, context and profile) on one ' +
      'benchmark thread of this host and times each score. The unit of `iterations` is one character of reply text: ' +
      'the samples are scored in turn, each whole, until they add up to `iterations` characters (`characters_scored` ' +
      'says how many were, `scores` how many scores that took). The default 2000 is about 20 scores, the maximum 100000 ' +
      'about 900. Timings (`mean_ms`, `p50_ms`, `p95_ms`, `p99_ms`) are per score. One benchmark runs at a time and two ' +
      'more may wait; beyond that the answer is 503 `capacity_busy` with Retry-After.',
    tags: ['health'],
    query: healthCapacityQuerySchema,
    responses: {
      '200': {
        description: 'Timings of the benchmark on one thread, and the estimate for this host.',
        schema: {
          type: 'object',
          required: ['iterations', 'characters_scored', 'scores', 'scorer_version', 'total_ms', 'mean_ms', 'scores_per_second'],
          properties: {
            iterations: { type: 'integer', description: 'As asked: characters of reply text to score.' },
            characters_scored: { type: 'integer', description: 'Characters scored; the last score may go past `iterations`.' },
            scores: { type: 'integer', description: 'Whole scores timed.' },
            scorer_version: { type: 'string' },
            total_ms: { type: 'number' },
            mean_ms: { type: 'number' },
            p50_ms: { type: 'number' },
            p95_ms: { type: 'number' },
            p99_ms: { type: 'number' },
            scores_per_second: { type: 'number' },
            threads_available: { type: 'integer' },
            estimated_scores_per_second: { type: 'number' },
            note: { type: 'string' },
          },
        },
      },
      '422': COMMON_RESPONSES['422'],
      '503': {
        description: 'A benchmark is running and two more are waiting (capacity_busy); retry after the Retry-After seconds.',
        schema: errorBodySchema,
      },
    },
  },
];
