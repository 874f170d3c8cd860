import Router from '@koa/router';
import { findDrill, findPack, type Pack } from '../../shared/coaching/packs';
import { AppError } from '../../shared/errors';
import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRODUCTS, PRODUCT_TERMS } from '../../shared/products';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody } from '../http/validate';
import { chargeFor } from '../payments/charge';
import { quoteFor } from '../payments/loyalty';
import type { DeliveryExtras } from '../payments/paid-work';
import { pay } from '../payments/pay';
import { sendQuote } from '../payments/quote';
import { COACHING_CLAIM_HEADER, isPayerClaim } from './coaching-claim';
import { COACHING_SECRET_HEADER, coachingSecretHashFrom, hashCoachingSecret, invalidCoachingSecret, newCoachingSecret } from './coaching-secret';
import { drillRequestSchema, enrollRequestSchema, type DrillRequest, type EnrollRequest } from './coaching.schema';
import { standingOf } from './drill-progress';
import { runDrill } from './drill.service';
import { bestScores, createEnrollment, findEnrollmentBySecret, replaceSecret, setSecretOnce, type EnrollmentRow } from './enrollment-store';
import { SECRET_PENDING_NOTE, SECRET_REISSUED_NOTE, SECRET_SHOWN_NOTE, presentCatalog, presentDrill, presentEnrollment, presentProgress } from './present-coaching';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The coaching routes: the pack catalog, paid enrollment, drill attempts and progress.
 * @param deps - app dependencies
 * @returns the router
 */
export function coachingRoutes(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  const product = PRODUCTS.coaching;
  const { dataSource } = deps;
  const origin = (ctx: AppContext) => deps.config.payments.publicBaseUrl ?? `${ctx.protocol}://${ctx.host}`;

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

  router.get(product.path, async (ctx: AppContext) => {
    sendQuote(ctx, deps, chargeFor(product));
  });

  router.post(product.path, validateBody(enrollRequestSchema), async (ctx: AppContext) => {
    const body = ctx.state.body as EnrollRequest;
    const pack = findPack(body.pack_id);
    if (!pack) throw new Error(`pack ${body.pack_id} passed validation but is not in the catalog`);
    const charge = await quoteFor(dataSource, product, undefined, body.wallet_address);
    // The secret goes, once, to the request that made the payment, and a new one (replacing it) to a
    // request that proves it comes from the payer; never to a replay rebuilt from the public chain
    // (as bundle tokens, issue 18). Only its hash is stored.
    const claim = ctx.get(COACHING_CLAIM_HEADER);
    const onDelivery: DeliveryExtras = async (authorization, delivery) => {
      const secret = newCoachingSecret();
      if (delivery.first) {
        return (await setSecretOnce(dataSource, authorization.id, hashCoachingSecret(secret))) ? { secret, secret_note: SECRET_SHOWN_NOTE } : {};
      }
      if (!(await isPayerClaim(authorization, claim, deps.config.payments.evmRpcUrl))) return {};
      return (await replaceSecret(dataSource, authorization.id, hashCoachingSecret(secret))) ? { secret, secret_note: SECRET_REISSUED_NOTE } : {};
    };
    await pay(
      ctx,
      deps,
      {
        charge,
        wallet: body.wallet_address,
        requestHash: canonicalHash({ path: ctx.path, body }),
        onDelivery,
        nonFinalNote: { secret_note: SECRET_PENDING_NOTE },
      },
      async (paid) => {
        if (paid.authorizationId === null) throw new Error('coaching is bought per call only');
        const enrollment = await createEnrollment(dataSource, {
          wallet: paid.payer,
          packId: pack.id,
          attempts: PRODUCT_TERMS.coachingAttempts,
          authorizationId: paid.authorizationId,
        });
        return {
          response: presentEnrollment(enrollment, pack, paid.resultId),
          // An enrollment scores nothing itself: the ledger row has no profile or score.
          summary: { profile: null, score: null, passed: null, scorerVersion: 'none' },
          calibrationText: null,
        };
      },
    );
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
