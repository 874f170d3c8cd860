import Router from '@koa/router';
import { AppError } from '../../shared/errors';
import { canonicalHash } from '../../shared/payments/canonical-hash';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody, validateQuery } from '../http/validate';
import { createPurchaseBundle, findBundleByTokenHash, getBundle, mintPurchaseToken, replaceBundleToken } from '../payments/bundle-credit/bundle-store';
import { BUNDLE_TOKEN_HEADER, bundleTokenHashFrom, invalidBundleToken } from '../payments/bundle-credit/bundle-token';
import { walletKey } from '../payments/bundle-credit/wallet-key';
import type { DeliveryExtras } from '../payments/paid-work';
import { pay } from '../payments/pay';
import { sendQuote } from '../payments/quote';
import { checkReferralCode, normalizeReferralCode, referralAfterSettlement, referralBeforeSettlement } from '../payments/referral-check';
import { bundleCharge, planTerms, type PurchasePlan } from './bundle-plans';
import { bundleQuoteQuerySchema, bundleRequestSchema, recoverRequestSchema, type BundleRequest, type RecoverRequest } from './bundles.schema';
import { TOKEN_PENDING_NOTE, TOKEN_SHOWN_NOTE, presentBalance, presentPurchase } from './present-bundle';
import { RECOVERY_WINDOW_SECONDS, isOwnerSignature, recoveryMessage } from './recovery';
import { BUNDLE_CLAIM_HEADER, isBuyerClaim } from './token-claim';

/**
 * The bundle routes: purchase (paid), quote, balance and token recovery.
 * @param deps - app dependencies
 * @returns the router
 */
export function bundleRoutes(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  const { dataSource } = deps;

  router.get('/api/bundle', validateQuery(bundleQuoteQuerySchema), async (ctx: AppContext) => {
    const { plan } = ctx.state.query as { plan: PurchasePlan };
    sendQuote(ctx, deps, bundleCharge(plan));
  });

  router.post('/api/bundle', validateBody(bundleRequestSchema), async (ctx: AppContext) => {
    const body = ctx.state.body as BundleRequest;
    const plan = body.plan ?? 'bundle';
    const charge = bundleCharge(plan);
    const code = normalizeReferralCode(body.referral_code ?? '');
    // A no-wallet request gets the quote (the pipeline), so its code is checked when a wallet comes.
    const intent = code && body.wallet_address !== undefined ? await checkReferralCode(dataSource, walletKey(body.wallet_address), code) : undefined;
    const request = { ...body, plan, referral_code: code };

    const claim = ctx.get(BUNDLE_CLAIM_HEADER);
    const onDelivery: DeliveryExtras = async (authorization, delivery) => {
      const extras: Record<string, unknown> = {};
      // The token goes, once, to the request that made the payment or to one that proves it comes
      // from the payer; never to a replay rebuilt from the public chain (issue 18).
      if (delivery.first || (await isBuyerClaim(authorization, claim, deps.config.payments.evmRpcUrl))) {
        const minted = await mintPurchaseToken(dataSource, authorization.id);
        if (minted) Object.assign(extras, { bundle_token: minted.token, token_note: TOKEN_SHOWN_NOTE });
      }
      try {
        const stored = (authorization.response as { referral?: Record<string, unknown> } | null)?.referral;
        if (stored) extras.referral = await referralAfterSettlement(dataSource, authorization.id, stored);
      } catch (err) {
        // The minted token must still reach the buyer; rewards stay pending or recoverable.
        ctx.state.log.error({ err }, 'referral delivery failed');
      }
      return extras;
    };

    await pay(
      ctx,
      deps,
      {
        charge,
        wallet: body.wallet_address,
        requestHash: canonicalHash({ path: ctx.path, body: request }),
        onDelivery,
        nonFinalNote: { token_note: TOKEN_PENDING_NOTE },
      },
      async (paid) => {
        if (paid.authorizationId === null) throw new Error('a bundle is bought per call only');
        const created = await createPurchaseBundle(dataSource, {
          wallet: paid.payer,
          plan,
          credits: planTerms(plan).credits,
          authorizationId: paid.authorizationId,
        });
        const response = presentPurchase({
          bundle: created,
          resultId: paid.resultId,
          referral: intent && referralBeforeSettlement(intent),
        });
        return {
          response,
          // A purchase scores nothing: the ledger row has no profile or score.
          summary: { profile: null, score: null, passed: null, scorerVersion: 'none', referralCode: intent?.eligible ? code : null },
          calibrationText: null,
        };
      },
    );
  });

  router.get('/api/bundle/balance', async (ctx: AppContext) => {
    const found = await findBundleByTokenHash(dataSource, bundleTokenHashFrom(ctx.get(BUNDLE_TOKEN_HEADER)));
    if (!found) throw invalidBundleToken();
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentBalance(found);
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