import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import { AppError } from '../../shared/errors';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { normalizeReferralCode } from '../payments/referral-check';
import { referralStatus } from './referral-status';

// Codes are `HL-` and 8 characters; anything much longer is not looked up.
const MAX_CODE_CHARS = 32;

/**
 * The public referral routes.
 * @param deps - app dependencies
 * @returns the router
 */
export function referralRoutes(deps: AppDeps): Router<AppState> {
  const router = createRouter();

  router.get('/api/referral/status/:code', async (ctx: AppContext) => {
    const code = normalizeReferralCode(String(ctx.params.code ?? ''));
    const status = code.length <= MAX_CODE_CHARS ? await referralStatus(deps.dataSource, code) : undefined;
    if (!status) throw new AppError(404, 'referral_code_not_found', 'No wallet has this referral code.');
    ctx.body = status;
  });

  return router;
}
