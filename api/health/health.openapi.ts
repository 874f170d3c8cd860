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
    tags: ['health'],
    query: healthCapacityQuerySchema,
    responses: {
      '200': {
        description: 'Timings of the benchmark on one thread, and the estimate for this host.',
        schema: {
          type: 'object',
          required: ['iterations', 'scorer_version', 'total_ms', 'mean_ms', 'scores_per_second'],
          properties: {
            iterations: { type: 'integer' },
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
      '503': { description: 'A benchmark is already running (capacity_busy).', schema: errorBodySchema },
    },
  },
];
