import type Router from '@koa/router';
import { createSecretBox } from '../../../shared/secrets/secret-box';
import type { AppContext, AppState } from '../../http/context';
import { createRouter } from '../../http/create-router';
import type { AppDeps } from '../../http/deps';
import { validateBody } from '../../http/validate';
import { loadPilotEvidence } from './pilot-evidence';
import { sponsorRequestSchema, type SponsorRequest } from './sponsor.schema';
import { AGENT_KEY_PURPOSE, listSponsors, saveSponsor } from './sponsor.store';

/**
 * The pilot's operator side, behind the operator credential (checked before routing for every
 * path under `/api/operator`): sponsors with their quotas, agent endpoints and usage, and the
 * pilot's aggregate evidence.
 * @param deps - app dependencies
 * @returns the router
 */
export function pilotOperatorRoutes(deps: AppDeps): Router<AppState> {
  const router = createRouter();
  const ds = deps.dataSource;
  const secret = deps.config.pilot.agentKeySecret;
  const box = secret === undefined ? undefined : createSecretBox(secret, AGENT_KEY_PURPOSE);

  router.get('/api/operator/aei/sponsor', async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { sponsors: await listSponsors(ds) };
  });

  router.post('/api/operator/aei/sponsor', validateBody(sponsorRequestSchema), async (ctx: AppContext) => {
    const { sponsor, created } = await saveSponsor(ds, box, ctx.state.body as SponsorRequest);
    ctx.state.log.info({ sponsor: sponsor.sponsor_id, created, state: sponsor.state }, 'pilot sponsor saved');
    ctx.status = created ? 201 : 200;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { sponsor };
  });

  router.get('/api/operator/aei-pilot-evidence', async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await loadPilotEvidence(ds);
  });

  return router;
}
