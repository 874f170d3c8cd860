import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import { changeNetworkConfig } from '../../shared/operators/network-config';
import { listNetworkConfigViews } from '../../shared/operators/network-config-cache';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody } from '../http/validate';
import { configureNetworkSchema, type ConfigureNetworkRequest } from './admin.schema';
import { presentNetworkConfig, presentNetworkConfigViews } from './present-network-config';

/**
 * The admin routes. The admin credential is checked before routing, by `operatorGuard`, for every
 * path under `/api/admin`; `ctx.state.credential` is set here.
 * @param deps - app dependencies
 * @returns the router
 */
export function adminRoutes(deps: AppDeps): Router<AppState> {
  const router = createRouter();

  router.get('/api/admin/network-config', async (ctx: AppContext) => {
    ctx.body = presentNetworkConfig(await deps.network.refresh());
  });

  router.get('/api/admin/network-config/processes', async (ctx: AppContext) => {
    const current = await deps.network.refresh();
    ctx.body = presentNetworkConfigViews(current, await listNetworkConfigViews(deps.redis, deps.config.redis.queuePrefix));
  });

  router.patch('/api/admin/configure-network', validateBody(configureNetworkSchema), async (ctx: AppContext) => {
    const body = ctx.state.body as ConfigureNetworkRequest;
    const { before, after, auditId } = await changeNetworkConfig(
      deps.dataSource,
      { simulateBaseLamports: body.simulate_base_lamports, failureSuspensionCap: body.failure_suspension_cap },
      ctx.state.credential!.id,
    );
    // This process applies it before answering; the others on the announcement.
    await deps.network.refresh();
    try {
      await deps.network.announce();
    } catch (err) {
      // Stored and audited: the other processes pick it up on their periodic re-read.
      ctx.state.log.warn({ err }, 'network config announcement failed');
    }
    ctx.state.log.info({ credentialId: ctx.state.credential!.id, auditId }, 'network config changed');
    ctx.body = { network_config: presentNetworkConfig(after), previous: presentNetworkConfig(before), audit_id: auditId };
  });

  return router;
}
