import type Router from '@koa/router';
import { bundleCardState } from '../../shared/cards/card-store';
import { presentCardState } from '../../shared/cards/present-card-state';
import { AppError } from '../../shared/errors';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody } from '../http/validate';
import { findBundleByTokenHash, getBundle, replaceBundleToken } from '../payments/bundle-credit/bundle-store';
import { BUNDLE_TOKEN_HEADER, bundleTokenHashFrom, invalidBundleToken } from '../payments/bundle-credit/bundle-token';
import { walletKey } from '../payments/bundle-credit/wallet-key';
import type { PaidProduct } from '../payments/paid-product';
import { paidRoutes } from '../payments/paid-routes';
import { bundleProduct } from './bundles.product';
import { recoverRequestSchema, type RecoverRequest } from './bundles.schema';
import { presentBalance } from './present-bundle';
import { RECOVERY_WINDOW_SECONDS, isOwnerSignature, recoveryMessage } from './recovery';

/**
 * The bundle routes: purchase (paid), quote, balance and token recovery.
 * @param deps - app dependencies
 * @param paid - the bundle product ({@link bundleProduct})
 * @returns the router
 */
export function bundleRoutes(deps: AppDeps, paid: PaidProduct = bundleProduct(deps)): Router<AppState> {
  const router = paidRoutes(deps, paid);
  const { dataSource } = deps;

  router.get('/api/bundle/balance', async (ctx: AppContext) => {
    const found = await findBundleByTokenHash(dataSource, bundleTokenHashFrom(ctx.get(BUNDLE_TOKEN_HEADER)));
    if (!found) throw invalidBundleToken();
    // Card purchases still pending and renewals: bought by card, for this bundle (a top-up may name any bundle).
    const card = presentCardState(await bundleCardState(dataSource, found.id));
    const hasCard = found.source === 'card' || card.pending_purchases.length > 0 || card.renewals.length > 0;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ...presentBalance(found), ...(hasCard ? { card } : {}) };
  });

  router.post('/api/bundle/recover', validateBody(recoverRequestSchema), async (ctx: AppContext) => {
    const body = ctx.state.body as RecoverRequest;
    const found = await getBundle(dataSource, body.bundle_id);
    // One answer for "no such bundle" and "not yours": a bundle id reveals nothing about its owner.
    if (!found || found.wallet !== walletKey(body.wallet_address)) {
      throw new AppError(404, 'bundle_not_found', 'No bundle with this id belongs to this wallet.');
    }
    const now = Math.floor(Date.now() / 1000);
    if (Math.abs(now - body.timestamp) > RECOVERY_WINDOW_SECONDS) {
      throw new AppError(401, 'signature_expired', `The signed timestamp must be within ${RECOVERY_WINDOW_SECONDS} seconds of the server clock; sign a fresh message.`, {
        details: { server_time: now, window_seconds: RECOVERY_WINDOW_SECONDS },
      });
    }
    const message = recoveryMessage(found.id, body.timestamp);
    if (!(await isOwnerSignature(found.wallet, message, body.signature, deps.config.payments.evmRpcUrl))) {
      throw new AppError(401, 'invalid_signature', "The signature is not this wallet's signature of the recovery message (see details.message).", {
        details: { message },
      });
    }
    if (!found.settled) {
      throw new AppError(409, 'bundle_not_settled', 'This purchase has not settled; retry it with the same authorization and request first.');
    }
    const replaced = await replaceBundleToken(dataSource, found.id, body.timestamp);
    if (!replaced) throw new AppError(401, 'signature_reused', 'This signature was used already; sign the message again with a later timestamp.');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      ...presentBalance(replaced.bundle),
      bundle_token: replaced.token,
      token_note: 'Shown once and stored only as a hash; the previous token no longer works.',
    };
  });

  return router;
}