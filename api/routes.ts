import { createRouter } from './http/create-router';
import { paidRoutes } from './payments/paid-routes';
import Router from '@koa/router';
import type { Queue } from 'bullmq';
import type { AppConfig } from '../shared/config';
import type { OutboundGuard } from '../shared/http/outbound-guard';
import { createStripeClient } from '../shared/cards/stripe-client';
import { PRODUCTS } from '../shared/products';
import { adminOperations } from './admin/admin.openapi';
import { aeiProgramOperations } from './aei-programs/aei-programs.openapi';
import { aeiProgramRoutes } from './aei-programs/aei-programs.routes';
import { pilotOperations } from './aei-programs/pilot/pilot.openapi';
import { pilotRoutes } from './aei-programs/pilot/pilot.routes';
import { pilotOperatorRoutes } from './aei-programs/pilot/sponsor.routes';
import { companyOperations } from './aei-company/company.openapi';
import { companyRoutes } from './aei-company/company.routes';
import { guideRoutes } from './aei-company/guide.routes';
import { aeiOutreachOperations } from './aei-outreach/aei-outreach.openapi';
import { aeiOutreachRoutes } from './aei-outreach/aei-outreach.routes';
import { adminRoutes } from './admin/admin.routes';
import { bundleOperations } from './bundles/bundles.openapi';
import { installOperations } from './catalog/installs/install.openapi';
import { installRoutes } from './catalog/installs/install.routes';
import { planOperations } from './catalog/plans/plans.openapi';
import { planRoutes } from './catalog/plans/plans.routes';
import { bundleProduct } from './bundles/bundles.product';
import { bundleRoutes } from './bundles/bundles.routes';
import { cardOperations } from './cards/cards.openapi';
import { cardRoutes } from './cards/cards.routes';
import { cardTools } from './cards/cards.tools';
import { planTools } from './catalog/plans/plans.tools';
import { catalogMatchOperations } from './catalog/catalog-match.openapi';
import { catalogMatchRoutes } from './catalog/catalog-match.routes';
import { communityReviewOperations } from './community-review/community-review.openapi';
import { communityReviewRoutes } from './community-review/community-review.routes';
import { coachingOperations } from './coaching/coaching.openapi';
import { coachingProduct } from './coaching/coaching.product';
import { coachingRoutes } from './coaching/coaching.routes';
import { coachingTools } from './coaching/coaching.tools';
import { corpusOperations } from './corpus/corpus.openapi';
import { corpusRoutes } from './corpus/corpus.routes';
import { duelOperations } from './duel/duel.openapi';
import { embedOperations } from './embed/embed.openapi';
import { embedRoutes } from './embed/embed.routes';
import { duelProduct } from './duel/duel.product';
import { duelRoutes } from './duel/duel.routes';
import { duelTools } from './duel/duel.tools';
import { bazaarExtensions } from './discovery/bazaar';
import { discoveryOperations } from './discovery/discovery.openapi';
import { discoveryRoutes } from './discovery/discovery.routes';
import type { FeedHub } from './feed/feed-hub';
import { feedOperations } from './feed/feed.openapi';
import { feedRoutes } from './feed/feed.routes';
import type { CorpusScoreWriter } from './free-score/corpus-scores';
import { scoreOperations } from './free-score/free-score.openapi';
import { scoreRoutes } from './free-score/free-score.routes';
import { freeScoreTool } from './free-score/free-score.tool';
import type { CapacityRunner } from './health/capacity';
import { healthOperations } from './health/health.openapi';
import { healthRoutes } from './health/health.routes';
import { liveOperations } from './live/live.openapi';
import { liveRoutes } from './live/live.routes';
import { metricsOperations } from './metrics/metrics.openapi';
import { metricsRoutes } from './metrics/metrics.routes';
import { operatorOperations } from './operator/operator.openapi';
import { operatorRoutes } from './operator/operator.routes';
import { outreachOperations } from './outreach/outreach.openapi';
import { outreachRoutes } from './outreach/outreach.routes';
import { mcpOperations } from './mcp/mcp.openapi';
import { mcpRoutes } from './mcp/mcp.routes';
import type { AppContext, AppState } from './http/context';
import { cacheRouteMatches } from './http/route-match-cache';
import type { AppDeps } from './http/deps';
import { buildOpenApiDocument } from './http/openapi/document';
import { PAYMENT_METHODS, type PaymentMethod } from './payments/methods';
import { withPaymentMethodHeaders } from './payments/payment.openapi';
import { paymentMethodsOf } from './payments/pay';
import type { OperationSpec } from './http/openapi/operation';
import { pricingOperations } from './pricing/pricing.openapi';
import { pricingRoutes } from './pricing/pricing.routes';
import { proofCardOperations } from './proof-cards/proof-cards.openapi';
import { proofCardRoutes } from './proof-cards/proof-cards.routes';
import { pricingManifestReader, pricingTool } from './pricing/pricing.tool';
import { recordsOperations } from './records/records.openapi';
import { recordsRoutes } from './records/records.routes';
import { leaderboardReader, recordsTools } from './records/records.tools';
import { profileOperations } from './profiles/profiles.openapi';
import { validationOperations } from './validation/validation.openapi';
import { validationRoutes } from './validation/validation.routes';
import { profileRoutes } from './profiles/profiles.routes';
import { profilesTool } from './profiles/profiles.tool';
import { referralOperations } from './referrals/referrals.openapi';
import { referralRoutes } from './referrals/referrals.routes';
import { rewriteOperations } from './rewrite/rewrite.openapi';
import { roleplayOperations } from './roleplay/roleplay.openapi';
import { roleplayProduct } from './roleplay/roleplay.product';
import { roleplayRoutes } from './roleplay/roleplay.routes';
import { roleplayTools } from './roleplay/roleplay.tools';
import { rewriteProduct } from './rewrite/rewrite.product';
import { scriptCheckOperations } from './script-check/script-check.openapi';
import { scriptCheckProduct } from './script-check/script-check.product';
import { simulateOperations } from './simulate/simulate.openapi';
import { simulateProduct } from './simulate/simulate.product';
import type { StressQueue } from './stress-test/stress-queue';
import { stressTestOperations } from './stress-test/stress-test.openapi';
import { stressTestProduct } from './stress-test/stress-test.product';
import { starterKitOperations } from './starter-kit/starter-kit.openapi';
import { starterKitRoutes } from './starter-kit/starter-kit.routes';
import { wishlistOperations } from './wishlist/wishlist.openapi';
import { wishlistRoutes } from './wishlist/wishlist.routes';
import type { ExportsQueue } from './http/exports-queue';
import { progressOperations } from './progress/progress.openapi';
import { progressProduct } from './progress/progress.product';
import { trainingDatasetOperations } from './training-dataset/training-dataset.openapi';
import { trainingDatasetProduct } from './training-dataset/training-dataset.product';
import { trainingDatasetRoutes } from './training-dataset/training-dataset.routes';

/** The services families own, built once per process by `api/server.ts` and closed by it. */
export interface FamilyServices {
  /** The web-side thread of `/api/health-capacity`. */
  capacity: CapacityRunner;
  /** This process's subscription to the live feed of settlements. */
  feed: FeedHub;
  /** Writes free corpus scores after the replies were sent; drained before the database closes. */
  corpusScores: CorpusScoreWriter;
  /** The `stress` queue and its QueueEvents, for the stress test. */
  stress: StressQueue;
  /** The `exports` queue, for the progress report and the training-dataset export. */
  exports: ExportsQueue;
  /** Every queue of the system (the queue dashboard's), on the producer connection. */
  queues: readonly Queue[];
  /** The one guard every fetch of an address a caller gave goes through (an install's site). */
  outbound: OutboundGuard;
}

/** Everything the API's families need: the core every family may use, plus the family services. */
export type ApiDeps = AppDeps & FamilyServices;

const openApiOperation: OperationSpec = {
  method: 'get',
  path: '/api/openapi.json',
  operationId: 'getOpenApi',
  summary: 'This OpenAPI 3.1 document, generated from the schemas that validate requests.',
  tags: ['catalog'],
  responses: { '200': { description: 'The document.', schema: { type: 'object' } } },
};

/**
 * Every operation the service serves; the OpenAPI document and the pricing manifest read this list.
 * @param config - the loaded config (generated prose shows configured values, e.g. the free cap)
 * @param methods - the payment methods this process takes (their headers join every paid POST)
 * @returns the operations
 */
export function apiOperations(config: AppConfig, methods: readonly PaymentMethod[] = PAYMENT_METHODS): OperationSpec[] {
  return withPaymentMethodHeaders([
    ...healthOperations,
    ...pricingOperations,
    ...profileOperations,
    ...corpusOperations,
    ...scoreOperations(config.freeTier),
    ...simulateOperations,
    ...scriptCheckOperations,
    ...bundleOperations,
    ...cardOperations,
    ...embedOperations,
    ...installOperations,
    ...planOperations,
    ...referralOperations,
    ...feedOperations,
    ...wishlistOperations,
    ...stressTestOperations,
    ...duelOperations,
    ...rewriteOperations,
    ...roleplayOperations,
    ...progressOperations,
    ...trainingDatasetOperations,
    ...coachingOperations,
    ...recordsOperations,
    ...proofCardOperations,
    ...communityReviewOperations,
    ...aeiProgramOperations,
    ...validationOperations,
    ...pilotOperations,
    ...companyOperations,
    ...aeiOutreachOperations,
    ...liveOperations,
    ...adminOperations,
    ...operatorOperations,
    ...outreachOperations,
    ...metricsOperations,
    ...starterKitOperations,
    ...catalogMatchOperations,
    ...discoveryOperations,
    ...mcpOperations,
    openApiOperation,
  ], methods);
}

/**
 * Mounts every family's routes.
 * @param deps - app dependencies and family services
 * @returns one router holding all routes
 */
export function createApiRouter(apiDeps: ApiDeps): Router<AppState> {
  // Every request is matched against every route; the answer per method and path is kept.
  const router = cacheRouteMatches(createRouter());
  const operations = apiOperations(apiDeps.config, paymentMethodsOf(apiDeps));
  // Every paid product's 402 declares the Bazaar discovery extension, from the same operations.
  const deps: ApiDeps = { ...apiDeps, challengeExtensions: bazaarExtensions(operations) };
  // Every operation as `METHOD /path`, e.g. `GET /api/simulate`: the manifest lists only these.
  const served: ReadonlySet<string> = new Set(operations.map((op) => `${op.method.toUpperCase()} ${op.path}`));
  // Each paid product is defined once by its family and sold by its route and by the MCP endpoint.
  const paid = {
    simulate: simulateProduct(deps),
    scriptCheck: scriptCheckProduct(deps),
    bundle: bundleProduct(deps),
    stressTest: stressTestProduct(deps, deps.stress),
    duel: duelProduct(deps),
    rewrite: rewriteProduct(deps),
    roleplay: roleplayProduct(deps),
    coaching: coachingProduct(deps),
    progress: progressProduct(deps),
    trainingDataset: trainingDatasetProduct(deps),
  };
  // One card processor client for the card routes and tools (undefined when card payments are off).
  const stripe = createStripeClient(deps.config.cards);
  const pricing = pricingManifestReader(deps, served);
  const leaderboard = leaderboardReader(deps);
  const agentTools = [profilesTool, freeScoreTool(deps), pricingTool(pricing), ...recordsTools(deps, leaderboard), ...duelTools(deps), ...roleplayTools(deps), ...coachingTools, ...cardTools(deps, stripe), ...planTools(deps)];
  const families = [
    healthRoutes(deps),
    pricingRoutes(deps, served, pricing),
    profileRoutes(),
    corpusRoutes(deps),
    scoreRoutes(deps),
    paidRoutes(deps, paid.simulate),
    paidRoutes(deps, paid.scriptCheck),
    bundleRoutes(deps, paid.bundle),
    cardRoutes(deps, stripe),
    embedRoutes(deps),
    installRoutes(deps, deps.outbound),
    planRoutes(deps),
    referralRoutes(deps),
    feedRoutes(deps),
    wishlistRoutes(deps),
    paidRoutes(deps, paid.stressTest),
    duelRoutes(deps, paid.duel),
    paidRoutes(deps, paid.rewrite),
    roleplayRoutes(deps, paid.roleplay),
    paidRoutes(deps, paid.progress),
    trainingDatasetRoutes(deps, paid.trainingDataset),
    coachingRoutes(deps, paid.coaching),
    recordsRoutes(deps, leaderboard),
    proofCardRoutes(deps, operations),
    communityReviewRoutes(deps),
    aeiProgramRoutes(deps),
    validationRoutes(),
    pilotRoutes(deps),
    pilotOperatorRoutes(deps),
    companyRoutes(deps, stripe),
    guideRoutes(deps),
    aeiOutreachRoutes(deps),
    liveRoutes(),
    adminRoutes(deps),
    operatorRoutes(deps),
    outreachRoutes(deps),
    metricsRoutes(deps),
    starterKitRoutes(deps),
    catalogMatchRoutes(deps),
    discoveryRoutes(deps, operations),
    // Tools in catalog order, so the listing follows the pricing manifest.
    mcpRoutes(deps, { paid: Object.values(PRODUCTS).flatMap((p) => Object.values(paid).filter((s) => s.product === p)), free: agentTools }),
  ];
  for (const family of families) router.use(family.routes());
  const document = Object.freeze(buildOpenApiDocument(operations, deps.config.freeTier));
  router.get('/api/openapi.json', async (ctx: AppContext) => {
    ctx.body = document;
  });
  return router;
}
