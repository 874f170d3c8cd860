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
 * 200 into the rows that manifest fixed: one JSON document by default (the contract's responses are
 * JSON unless stated), JSON Lines when `Accept` prefers `application/jsonl` (or `application/x-ndjson`).
 * @param deps - app dependencies and the exports queue
 * @param paid - the training-dataset product ({@link trainingDatasetProduct})
 * @returns the router
 */
export function trainingDatasetRoutes(deps: AppDeps & { exports: ExportsQueue }, paid: PaidProduct = trainingDatasetProduct(deps)): Router<AppState> {
  return paidRoutes(deps, paid, {
    // Over MCP the delivered object; over HTTP the rows that manifest fixed, in the form asked for.
    afterDelivery(ctx) {
      ctx.vary('Accept');
      // No Accept, */* or application/json all take the first type offered: JSON.
      const wanted = ctx.accepts('application/json', 'application/jsonl', 'application/x-ndjson');
      const lines = wanted === 'application/jsonl' || wanted === 'application/x-ndjson';
      ctx.type = lines ? 'application/jsonl; charset=utf-8' : 'application/json; charset=utf-8';
      ctx.body = trainingDatasetLines(deps, ctx.state.body, ctx.body as Record<string, unknown>, lines ? 'jsonl' : 'json');
    },
  });
}
