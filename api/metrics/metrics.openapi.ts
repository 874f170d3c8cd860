import type { OperationSpec } from '../http/openapi/operation';
import { errorBodySchema } from '../http/responses.schema';

/** OpenAPI spec of `GET /metrics`. */
export const metricsOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    summary: "This web process's Prometheus metrics (operator).",
    description:
      'Prometheus text exposition format: http_request_duration_seconds (method, route pattern, status), queue_jobs (queue, ' +
      'state), settlement_outcomes_total (outcome), payments_refused_total (reason), free_rounds_used_total, and Node process ' +
      'metrics. Label values are codes and route patterns only, never wallets, tokens or text. Job durations ' +
      '(job_duration_seconds by queue, job and outcome) are timed in the worker processes and served by each worker at ' +
      'GET /metrics on its own port (WORKER_METRICS_PORT), behind the same operator credential.',
    tags: ['operators'],
    security: 'operatorToken',
    responses: {
      '200': { description: 'The metrics.', mediaType: 'text/plain; version=0.0.4', schema: { type: 'string' } },
      '401': { description: 'credential_required, credential_invalid, credential_expired or credential_revoked.', schema: errorBodySchema },
      '403': { description: 'credential_wrong_role: this needs an operator credential.', schema: errorBodySchema },
      '429': { description: 'too_many_failed_credentials (Retry-After).', schema: errorBodySchema },
    },
  },
];
