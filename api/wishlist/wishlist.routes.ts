import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import { isDatabaseUnavailable } from '../../shared/db/db-errors';
import { AppError, UnavailableError } from '../../shared/errors';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { callerHashFor } from '../http/caller-key';
import { submitWishlistItem } from './wishlist';
import { validateBody } from '../http/validate';
import { wishlistRequestSchema, type WishlistRequest } from './wishlist.schema';

/**
 * The wishlist route.
 * @param deps - app dependencies
 * @returns the router
 */
export function wishlistRoutes(deps: AppDeps): Router<AppState> {
  const router = createRouter();
  const { freeTier } = deps.config;

  router.post('/api/wishlist', validateBody(wishlistRequestSchema), async (ctx: AppContext) => {
    const item = ctx.state.body as WishlistRequest;
    const callerHash = callerHashFor(ctx.ip, freeTier.callerHashKey);
    const outcome = await submitWishlistItem(deps.dataSource, callerHash, item, freeTier.wishlistCap).catch((err: unknown) => {
      if (isDatabaseUnavailable(err)) throw new UnavailableError('database_unavailable', 'The database is unreachable; retry later.', { cause: err });
      throw err;
    });
    if (!outcome.ok) {
      throw new AppError(429, 'wishlist_cap_reached', `Each caller may submit ${freeTier.wishlistCap} wishlist items.`, {
        details: { limit: freeTier.wishlistCap },
      });
    }
    ctx.status = 201;
    ctx.body = { status: 'received', items_submitted: outcome.submitted, items_remaining: outcome.remaining };
  });

  return router;
}
