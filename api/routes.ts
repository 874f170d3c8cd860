import Router from '@koa/router';
import type { AppContext, AppState } from './http/context';
import type { AppDeps } from './http/deps';
import { buildOpenApiDocument } from './http/openapi/document';
import type { OperationSpec } from './http/openapi/operation';
import { bundleOperations, bundleRoutes } from './bundles/bundles.routes';
import { catalogOperations, catalogRoutes } from './pricing/catalog.routes';
import { feedOperations, feedRoutes } from './feed/feed.routes';
import { healthOperations, healthRoutes } from './health/health.routes';
import { referralOperations, referralRoutes } from './referrals/referrals.routes';
import { scoreOperations, scoreRoutes } from './free-score/free-score.routes';
import { simulateOperations, simulateRoutes } from './simulate/simulate.routes';
import { wishlistOperations, wishlistRoutes } from './wishlist/wishlist.routes';

const openApiOperation: OperationSpec = {
  method: 'get',
  path: '/api/openapi.json',
  operationId: 'getOpenApi',
  summary: 'This OpenAPI 3.1 document, generated from the schemas that validate requests.',
  tags: ['catalog'],
  responses: { '200': { description: 'The document.', schema: { type: 'object' } } },
};

/** Every operation the service serves; the OpenAPI document is built from this list. */
export const API_OPERATIONS: readonly OperationSpec[] = [
  ...healthOperations,
  ...catalogOperations,
  ...scoreOperations,
  ...simulateOperations,
  ...bundleOperations,
  ...referralOperations,
  ...feedOperations,
  ...wishlistOperations,
  openApiOperation,
];

/**
 * Mounts every route of the API.
 * @param deps - app dependencies
 * @returns one router holding all routes
 */
export function createApiRouter(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  for (const child of [healthRoutes(deps), catalogRoutes(deps), scoreRoutes(deps), simulateRoutes(deps), bundleRoutes(deps), referralRoutes(deps), feedRoutes(deps), wishlistRoutes(deps)]) {
    router.use(child.routes());
  }
  const document = Object.freeze(buildOpenApiDocument(API_OPERATIONS));
  router.get('/api/openapi.json', async (ctx: AppContext) => {
    ctx.body = document;
  });
  return router;
}
