import type { Next } from 'koa';
import type { DataSource } from 'typeorm';
import { checkToken } from '../../shared/operators/credentials';
import type { AppContext } from './context';
import { tokenOf } from './operator-guard';

/**
 * Whether a request is canary traffic (the marker operators agreed on): it carries a valid (known,
 * unexpired, unrevoked) operator or admin credential in `Authorization: Bearer hlo_...`, the
 * credential the operator paths take. A canary request is served normally (paid, scored,
 * ledgered), but the proof-card evidence counts it only under `test_or_canary_invocations`. An
 * invalid credential on a public path is ignored: no canary, no 401. A well-formed token that
 * cannot be checked (database unreachable) counts as canary, so test traffic never inflates the
 * real counts. The answer is kept on `ctx.state.canary`.
 * @param ctx - Koa context
 * @param deps - the DataSource the credentials live in
 * @returns true for canary traffic
 */
export async function isCanaryRequest(ctx: AppContext, deps: { dataSource: DataSource }): Promise<boolean> {
  if (ctx.state.canary !== undefined) return ctx.state.canary;
  ctx.state.canary = await checkCanary(ctx, deps);
  return ctx.state.canary;
}

async function checkCanary(ctx: AppContext, deps: { dataSource: DataSource }): Promise<boolean> {
  // The operator guard already checked the credential on operator and admin paths.
  if (ctx.state.credential) return true;
  const header = ctx.get('authorization');
  const token = header ? tokenOf(header) : undefined;
  if (!token?.startsWith('hlo_')) return false;
  try {
    return (await checkToken(deps.dataSource, token)).ok;
  } catch (err) {
    ctx.state.log.warn({ err }, 'canary credential could not be checked; counted as canary');
    return true;
  }
}

/**
 * Sets `ctx.state.canary` on every request (see {@link isCanaryRequest}); mount it after the
 * operator guard. Requests without a bearer token cost nothing.
 * @param deps - the DataSource the credentials live in
 * @returns the middleware
 */
export function canaryMarker(deps: { dataSource: DataSource }) {
  return async function markCanary(ctx: AppContext, next: Next): Promise<void> {
    await isCanaryRequest(ctx, deps);
    await next();
  };
}
