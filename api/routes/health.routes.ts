import Router from '@koa/router';
import { AppError, UnavailableError } from '../../shared/errors';
import { pingRedis } from '../../shared/redis';
import type { AppContext, AppState } from '../context';
import type { AppDeps } from '../deps';
import { validateQuery } from '../middleware/validate';
import type { OperationSpec } from '../openapi/operation';
import { healthCapacityQuerySchema, type HealthCapacityQuery } from '../schemas/health-capacity-query.schema';
import { COMMON_RESPONSES, errorBodySchema } from '../schemas/responses.schema';

const CHECK_TIMEOUT_MS = 2_000;

async function pingDatabase(deps: AppDeps): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    const query = deps.dataSource.query('SELECT 1').then(
      () => true,
      () => false,
    );
    return await Promise.race([query, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

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

/**
 * Answers a busy benchmark with the error handler's body, 503 and Retry-After, but logs it at warn
 * without a stack: the error handler logs every 5xx at error level as a fault, and turning a caller
 * away while the benchmark thread is taken is the intended outcome, not a fault (issue 10).
 */
function refuseBusy(ctx: AppContext, err: AppError): void {
  ctx.state.log?.warn({ code: err.code, status: err.status }, 'capacity benchmark refused');
  ctx.status = err.status;
  if (err.headers) ctx.set(err.headers);
  ctx.body = { error: { code: err.code, message: err.message, details: err.details ?? null } };
}

/**
 * Health routes.
 * @param deps - app dependencies
 * @returns the router
 */
export function healthRoutes(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();

  router.get('/api/healthz', async (ctx: AppContext) => {
    const [redis, postgres] = await Promise.all([pingRedis(deps.redis, CHECK_TIMEOUT_MS), pingDatabase(deps)]);
    const checks = { redis: redis ? 'ok' : 'down', postgres: postgres ? 'ok' : 'down' };
    const failing = Object.entries(checks)
      .filter(([, state]) => state === 'down')
      .map(([name]) => name);
    if (failing.length > 0) {
      throw new UnavailableError('dependency_unavailable', `Unhealthy: ${failing.join(' and ')} ${failing.length > 1 ? 'are' : 'is'} unreachable.`, {
        details: { checks, failing },
      });
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok', checks };
  });

  router.get('/api/health-capacity', validateQuery(healthCapacityQuerySchema), async (ctx: AppContext) => {
    const { iterations } = ctx.state.query as HealthCapacityQuery;
    const abort = new AbortController();
    // The client went away before the answer: stop the benchmark thread.
    const onClose = () => {
      if (!ctx.res.writableFinished) abort.abort();
    };
    ctx.res.once('close', onClose);
    ctx.set('Cache-Control', 'no-store');
    try {
      ctx.body = await deps.capacity.run(iterations, abort.signal);
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'capacity_busy')) throw err;
      refuseBusy(ctx, err);
    } finally {
      ctx.res.off('close', onClose);
    }
  });

  return router;
}
