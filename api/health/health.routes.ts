import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import { AppError, UnavailableError } from '../../shared/errors';
import { pingRedis } from '../../shared/redis';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import type { CapacityRunner } from './capacity';
import { validateQuery } from '../http/validate';
import { healthCapacityQuerySchema, type HealthCapacityQuery } from './health-capacity.schema';

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

/**
 * Answers a busy benchmark with the error handler's body, 503 and Retry-After, but logs it at warn
 * without a stack: the error handler logs every 5xx at error level as a fault, and turning a caller
 * away while the benchmark thread is taken is the intended outcome, not a fault.
 * @param ctx - Koa context
 * @param err - the capacity_busy refusal
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
export function healthRoutes(deps: AppDeps & { capacity: CapacityRunner }): Router<AppState> {
  const router = createRouter();

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
