import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import type { ExportsQueue } from '../http/exports-queue';
import { validateBody } from '../http/validate';
import type { PaidProduct } from '../payments/paid-product';
import { paidCallOf, pay } from '../payments/pay';
import { sendQuote } from '../payments/quote';
import { trainingDatasetLines, trainingDatasetProduct } from './training-dataset.product';

/**
 * The paid training-dataset routes: validate, build the charge, pay, then stream. The pipeline
 * delivers the stored manifest (first delivery and replays alike); the route turns a delivered
 * 200 into the JSON Lines stream of the rows that manifest fixed.
 * @param deps - app dependencies and the exports queue
 * @param paid - the training-dataset product ({@link trainingDatasetProduct})
 * @returns the router
 */
export function trainingDatasetRoutes(deps: AppDeps & { exports: ExportsQueue }, paid: PaidProduct = trainingDatasetProduct(deps)): Router<AppState> {
  const router = createRouter();
  const { product } = paid;

  router.get(product.path, async (ctx: AppContext) => {
    sendQuote(ctx, deps, await paid.quote({}));
  });

  router.post(product.path, validateBody(paid.requestSchema), async (ctx: AppContext) => {
    const { request, work } = await paid.prepare(ctx.state.body, paidCallOf(ctx, deps));
    await pay(ctx, deps, request, work);
    if (ctx.status !== 200) return;
    ctx.type = 'application/jsonl; charset=utf-8';
    ctx.body = trainingDatasetLines(deps, ctx.state.body, ctx.body as Record<string, unknown>);
  });

  return router;
}
