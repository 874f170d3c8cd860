import type Router from '@koa/router';
import type { AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import type { ExportsQueue } from '../http/exports-queue';
import type { PaidProduct } from '../payments/paid-product';
import { paidRoutes } from '../payments/paid-routes';
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
  return paidRoutes(deps, paid, {
    // Over HTTP the export is a JSON Lines stream; over MCP, the delivered object.
    afterDelivery(ctx) {
      ctx.type = 'application/jsonl; charset=utf-8';
      ctx.body = trainingDatasetLines(deps, ctx.state.body, ctx.body as Record<string, unknown>);
    },
  });
}
