import type Router from '@koa/router';
import { applyCardEvent } from '../../shared/cards/apply-event';
import { bundleCardState, cancelRenewals, getCardPurchaseBySession } from '../../shared/cards/card-store';
import { presentCardState } from '../../shared/cards/present-card-state';
import { createStripeClient, requireProcessor, type CardProcessor } from '../../shared/cards/stripe-client';
import type { AppContext, AppState } from '../http/context';
import { createRouter } from '../http/create-router';
import type { AppDeps } from '../http/deps';
import { requestOrigin } from '../http/public-origin';
import { validateBody, validateQuery } from '../http/validate';
import { findBundleByTokenHash } from '../payments/bundle-credit/bundle-store';
import { BUNDLE_TOKEN_HEADER, bundleTokenHashFrom, invalidBundleToken } from '../payments/bundle-credit/bundle-token';
import { checkoutRequestSchema, returnQuerySchema, type CheckoutRequest, type ReturnQuery } from './cards.schema';
import { startCheckout } from './checkout.service';
import { CANCEL_PATH, CHECKOUT_PATH, presentPacks } from './present-packs';
import { renderReturnPage } from './return-page';
import { readRawBody } from '../http/raw-body';
import { CARD_WEBHOOK_PATH, verifyWebhook } from './webhook';

/**
 * Card credit packs: the pack quotes, the hosted checkout, the processor's signed webhook (the only
 * way credits are granted on the web side), the return pages, and the renewal cancellation.
 * @param deps - app dependencies
 * @param stripe - the processor client (default: from config; undefined when card payments are off)
 * @returns the router
 */
export function cardRoutes(deps: AppDeps, stripe: CardProcessor = createStripeClient(deps.config.cards)): Router<AppState> {
  const router = createRouter();
  const { dataSource, config } = deps;

  router.get('/api/card/packs', async (ctx: AppContext) => {
    ctx.body = presentPacks(stripe !== undefined);
  });

  router.post(CHECKOUT_PATH, validateBody(checkoutRequestSchema), async (ctx: AppContext) => {
    const body = ctx.state.body as CheckoutRequest;
    // A top-up names its bundle by token; a token that is sent must be valid (never a silent new bundle).
    let bundleId: string | undefined;
    if (ctx.get(BUNDLE_TOKEN_HEADER) !== '') {
      const bundle = await findBundleByTokenHash(dataSource, bundleTokenHashFrom(ctx.get(BUNDLE_TOKEN_HEADER)));
      if (!bundle) throw invalidBundleToken();
      bundleId = bundle.id;
    }
    const processor = requireProcessor(stripe);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 201;
    ctx.body = await startCheckout(
      dataSource,
      processor,
      { pack: body.pack, autoRefill: body.auto_refill ?? false, bundleId, origin: requestOrigin(config.payments, ctx) },
      ctx.state.log,
    );
  });

  router.post(CARD_WEBHOOK_PATH, async (ctx: AppContext) => {
    const processor = requireProcessor(stripe);
    const raw = await readRawBody(ctx, config.http.bodyLimitBytes);
    const event = verifyWebhook(processor, raw, ctx.get('stripe-signature'), config.cards.stripeWebhookSecret as string, config.cards.webhookToleranceSeconds);
    const log = ctx.state.log.child({ eventId: event.id, eventType: event.type });
    // A failure here answers 500, and the processor delivers the event again.
    const outcome = await applyCardEvent({ dataSource, stripe: processor, log }, event, 'webhook');
    log.info({ outcome }, 'card webhook applied');
    ctx.body = { received: true, outcome };
  });

  for (const [path, kind] of [
    ['/api/card/checkout/complete', 'complete'],
    ['/api/card/checkout/cancelled', 'cancelled'],
  ] as const) {
    router.get(path, validateQuery(returnQuerySchema), async (ctx: AppContext) => {
      const { session_id: sessionId } = ctx.state.query as ReturnQuery;
      const purchase = await getCardPurchaseBySession(dataSource, sessionId);
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.type = 'text/html; charset=utf-8';
      // Shows the purchase's state only: credits come from the verified webhook, never from this page.
      ctx.body = renderReturnPage(kind, purchase);
    });
  }

  router.post(CANCEL_PATH, async (ctx: AppContext) => {
    const bundle = await findBundleByTokenHash(dataSource, bundleTokenHashFrom(ctx.get(BUNDLE_TOKEN_HEADER)));
    if (!bundle) throw invalidBundleToken();
    const cancelled = await cancelRenewals(dataSource, bundle.id);
    if (cancelled.length > 0) ctx.state.log.info({ bundleId: bundle.id, renewals: cancelled }, 'card renewals cancelled');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      bundle_id: bundle.id,
      cancelled: cancelled.length,
      renewals: presentCardState(await bundleCardState(dataSource, bundle.id)).renewals,
      note: 'No further renewal is charged; credits already granted remain. A renewal charged before this request settles as usual.',
    };
  });

  return router;
}
