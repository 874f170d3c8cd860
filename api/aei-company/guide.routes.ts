import type Router from '@koa/router';
import type { Next } from 'koa';
import { AppError } from '../../shared/errors';
import { callerHashFor } from '../http/caller-key';
import type { AppContext, AppState } from '../http/context';
import { createRouter } from '../http/create-router';
import type { AppDeps } from '../http/deps';
import { COMPANY_TOKEN } from '../http/program-token';
import { validateBody } from '../http/validate';
import { findBundleByTokenHash } from '../payments/bundle-credit/bundle-store';
import { BUNDLE_TOKEN_HEADER, bundleTokenHashFrom, invalidBundleToken } from '../payments/bundle-credit/bundle-token';
import { companyOf, companyTokenGuard } from './company.routes';
import { guideRequestSchema, type GuideRequest } from './guide.schema';
import {
  GUIDE_BUNDLE_LIMIT,
  GUIDE_CALLER_LIMIT,
  guideFor,
  IDEMPOTENCY_KEY_PATTERN,
  inputFingerprint,
  releaseReplay,
  reserveReplay,
  returnCompanyGuideCall,
  storeReplay,
  takeCompanyGuideCall,
  takeRateSlot,
  type GuideCaller,
} from './guide.service';

const callers = new WeakMap<AppContext, GuideCaller>();

/**
 * `POST /api/aei/guide`: server-to-server guidance for a draft. No payment and no text kept: the
 * draft is scored in this process and only offsets and codes leave it; a replay keeps a keyed
 * fingerprint of the inputs and the answer.
 * @param deps - app dependencies
 * @returns the router
 */
export function guideRoutes(deps: AppDeps): Router<AppState> {
  const router = createRouter();
  const ds = deps.dataSource;
  const { redis } = deps;
  const prefix = deps.config.redis.queuePrefix;
  const secret = deps.config.freeTier.callerHashKey;
  const companyGuard = companyTokenGuard(deps, { active: true });

  // A token that is sent must be valid (never a silent fall back to the anonymous bucket).
  const resolveCaller = async function resolveGuideCaller(ctx: AppContext, next: Next): Promise<void> {
    ctx.set('Cache-Control', 'no-store');
    if (ctx.get(COMPANY_TOKEN.header) !== '') {
      await companyGuard(ctx, async () => {
        callers.set(ctx, { kind: 'company', id: companyOf(ctx).id });
      });
    } else if (ctx.get(BUNDLE_TOKEN_HEADER) !== '') {
      const bundle = await findBundleByTokenHash(ds, bundleTokenHashFrom(ctx.get(BUNDLE_TOKEN_HEADER)));
      if (!bundle) throw invalidBundleToken();
      callers.set(ctx, { kind: 'bundle', id: bundle.id });
    } else {
      callers.set(ctx, { kind: 'caller', id: callerHashFor(ctx.ip, secret) });
    }
    await next();
  };

  router.post('/api/aei/guide', resolveCaller, validateBody(guideRequestSchema), async (ctx: AppContext) => {
    const input = ctx.state.body as GuideRequest;
    const caller = callers.get(ctx)!;
    const key = ctx.get('Idempotency-Key');
    if (key !== '' && !IDEMPOTENCY_KEY_PATTERN.test(key)) {
      throw new AppError(422, 'validation_failed', 'Idempotency-Key must be 1-200 printable characters without spaces.', {
        details: { fields: [{ path: '/headers/idempotency-key', rule: 'pattern', message: 'must be 1-200 printable ASCII characters without spaces' }] },
      });
    }
    const fingerprint = key === '' ? '' : inputFingerprint(secret, input);
    if (key !== '') {
      const reservation = await reserveReplay(redis, prefix, caller, key, fingerprint);
      if (reservation.kind === 'replay') {
        ctx.state.log.info({ caller: caller.kind, replayed: true }, 'guide answered');
        ctx.body = { ...reservation.answer, replayed: true, allowance: { kind: caller.kind, left: null } };
        return;
      }
    }
    let left: number;
    try {
      left =
        caller.kind === 'company'
          ? await takeCompanyGuideCall(ds, caller.id)
          : await takeRateSlot(redis, prefix, caller, caller.kind === 'bundle' ? GUIDE_BUNDLE_LIMIT : GUIDE_CALLER_LIMIT);
    } catch (err) {
      if (key !== '') await releaseReplay(redis, prefix, caller, key);
      throw err;
    }
    let answer;
    try {
      answer = guideFor(input);
      if (key !== '') await storeReplay(redis, prefix, caller, key, fingerprint, answer);
    } catch (err) {
      if (caller.kind === 'company') await returnCompanyGuideCall(ds, caller.id);
      if (key !== '') await releaseReplay(redis, prefix, caller, key);
      throw err;
    }
    ctx.state.log.info({ caller: caller.kind, replayed: false, signals: (answer.signals as unknown[]).length }, 'guide answered');
    ctx.body = { ...answer, replayed: false, allowance: { kind: caller.kind, left } };
  });

  return router;
}
