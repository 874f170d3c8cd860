import Router from '@koa/router';
import { findDrill, findPack, type Pack } from '../../shared/coaching/packs';
import { AppError } from '../../shared/errors';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody } from '../http/validate';
import type { PaidProduct } from '../payments/paid-product';
import { paidRoutes } from '../payments/paid-routes';
import { COACHING_SECRET_HEADER, coachingSecretHashFrom, invalidCoachingSecret } from './coaching-secret';
import { drillRequestSchema, type DrillRequest } from './coaching.schema';
import { standingOf } from './drill-progress';
import { runDrill } from './drill.service';
import { bestScores, findEnrollmentBySecret, type EnrollmentRow } from './enrollment-store';
import { presentCatalog, presentDrill, presentProgress } from './present-coaching';
import { coachingProduct } from './coaching.product';
import { requestOrigin } from '../http/public-origin';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The coaching routes: the pack catalog, paid enrollment ({@link coachingProduct}), drill attempts
 * and progress.
 * @param deps - app dependencies
 * @param paid - the enrollment as a paid product (shared with the MCP tool)
 * @returns the router
 */
export function coachingRoutes(deps: AppDeps, paid: PaidProduct = coachingProduct(deps)): Router<AppState> {
  const router = paidRoutes(deps, paid);
  const { dataSource } = deps;
  const origin = (ctx: AppContext) => requestOrigin(deps.config.payments, ctx);

  // The enrollment a request's secret opens, with its pack.
  async function enrollmentOf(ctx: AppContext): Promise<{ enrollment: EnrollmentRow; pack: Pack }> {
    const enrollment = await findEnrollmentBySecret(dataSource, coachingSecretHashFrom(ctx.get(COACHING_SECRET_HEADER)));
    if (!enrollment) throw invalidCoachingSecret();
    const pack = findPack(enrollment.packId);
    if (!pack) throw new Error(`enrollment ${enrollment.id} names unknown pack ${enrollment.packId}`);
    ctx.set('Cache-Control', 'no-store');
    return { enrollment, pack };
  }

  router.get('/api/coaching/packs', async (ctx: AppContext) => {
    ctx.body = presentCatalog();
  });

  router.post('/api/coaching/drill', validateBody(drillRequestSchema), async (ctx: AppContext) => {
    const body = ctx.state.body as DrillRequest;
    const { enrollment, pack } = await enrollmentOf(ctx);
    const drill = findDrill(pack, body.drill_id);
    if (!drill) {
      throw new AppError(422, 'drill_not_in_pack', `Drill ${body.drill_id} is not in pack ${pack.id}; no attempt was used.`, {
        details: { fields: [{ path: '/drill_id', rule: 'drill_not_in_pack', message: `must be a drill of pack ${pack.id}` }], drills: pack.drills.map((d) => d.id) },
      });
    }
    const outcome = await runDrill(deps, enrollment, pack, drill, body, ctx.state.reqId);
    ctx.body = presentDrill(outcome, enrollment, drill, origin(ctx));
  });

  router.get('/api/coaching/:enrollment_id', async (ctx: AppContext) => {
    const { enrollment, pack } = await enrollmentOf(ctx);
    const id = String(ctx.params.enrollment_id);
    // The secret is checked first: an id alone reveals nothing, not even whether it exists.
    if (!UUID.test(id) || id.toLowerCase() !== enrollment.id) {
      throw new AppError(403, 'secret_not_for_enrollment', 'This secret opens another enrollment, not this one.');
    }
    const { best, scored } = await bestScores(dataSource, enrollment.id);
    ctx.body = presentProgress(enrollment, pack, standingOf(pack, best, scored), origin(ctx));
  });

  return router;
}
