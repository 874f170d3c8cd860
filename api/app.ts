import cors from '@koa/cors';
import Koa from 'koa';
import type { AppState } from './http/context';
import { jsonBodyParser } from './http/body-parser';
import { canaryMarker } from './http/canary';
import { errorHandler } from './http/error-handler';
import { requestMetrics } from './http/metrics';
import { operatorGuard, roleForPath } from './http/operator-guard';
import { queueDashboard } from './http/queue-dashboard';
import { storablePath } from './http/storable-path';
import { clientIp } from '../shared/http/client-ip';
import { requestLogger } from '../shared/http/request-logger';
import { CARD_WEBHOOK_PATH } from './cards/webhook';
import { CONVERSIONS_PATH } from './catalog/conversions';
import { MCP_PATH } from './mcp/mcp.routes';
import type { PaymentMethod } from './payments/methods';
import { paymentMethodsOf } from './payments/pay';
import { createApiRouter, type ApiDeps } from './routes';

/** Response headers browsers may read besides the payment methods': the replay flag, the request id, Retry-After. */
const EXPOSED_HEADERS = ['X-Payment-Replayed', 'X-Request-Id', 'Retry-After'];

/** Request headers browsers may send besides the payment methods'. */
const ALLOWED_HEADERS = [
  'Content-Type',
  'Accept',
  'X-Request-Id',
  'X-BUNDLE-CLAIM',
  'Idempotency-Key',
  'X-AEI-PILOT-TOKEN',
  'X-AEI-WORDING-TOKEN',
  'X-AEI-COMPANY-TOKEN',
  'MCP-Protocol-Version',
];

/**
 * The CORS header lists: the fixed ones and every payment method's own.
 * @param methods - the payment methods this process takes
 * @returns the request headers a browser may send and the response headers it may read
 */
export function corsHeaders(methods: readonly PaymentMethod[]): { allow: string[]; expose: string[] } {
  const unique = (names: string[]): string[] => [...new Set(names)];
  return {
    allow: unique([...ALLOWED_HEADERS, ...methods.flatMap((m) => m.headers.map((h) => h.name))]),
    expose: unique([...methods.flatMap((m) => m.exposedHeaders ?? []), ...EXPOSED_HEADERS]),
  };
}

/**
 * Builds the Koa application. It never listens: `api/server.ts` does, and tests call
 * `createApp(deps).callback()`.
 * Order: request id + logger, error handler (so every error has a request id), client address,
 * CORS, the operator guard (credentials on operator and admin paths), the canary marker, body parser (JSON only,
 * size-limited), routes.
 * @param deps - config, logger, DataSource, Redis, queue, queue events, capacity runner
 * @returns the app
 */
export function createApp(deps: ApiDeps): Koa<AppState> {
  const app = new Koa<AppState>();
  const { http } = deps.config;
  // Trust exactly `trustedProxyHops` entries of X-Forwarded-For, counted from the right: `proxy` for
  // X-Forwarded-Proto and -Host; the client address itself is resolved by `clientIp` below.
  app.proxy = http.trustedProxyHops > 0;
  app.maxIpsCount = http.trustedProxyHops;
  app.on('error', (err: unknown) => deps.logger.error({ err }, 'koa error'));

  const router = createApiRouter(deps);
  app.use(requestLogger(deps.logger));
  // Outside the error handler, so each request is timed with the status it was answered with.
  app.use(requestMetrics(deps.metrics));
  app.use(errorHandler());
  app.use(clientIp(http.trustedProxyHops));
  const headers = corsHeaders(paymentMethodsOf(deps));
  const allowCrossOrigin = cors({
    origin: http.corsOrigin,
    exposeHeaders: headers.expose,
    allowHeaders: headers.allow,
    allowMethods: ['GET', 'POST', 'PATCH', 'OPTIONS'],
    maxAge: 600,
  });
  // Operator, admin and metrics answers are for operators' own tools, never for a page on another
  // origin: with a permissive header, any site could read them through a visitor's browser.
  app.use(async function corsExceptOperatorPaths(ctx, next) {
    return roleForPath(ctx.path) ? next() : allowCrossOrigin(ctx, next);
  });
  // Before the body parser: an unauthenticated caller's body is never read.
  app.use(operatorGuard(deps));
  // After the guard (it already checked operator paths' credentials): marks canary traffic.
  app.use(canaryMarker(deps));
  // The dashboard parses its own requests (it is a Koa app of its own), so it comes before ours.
  app.use(queueDashboard(deps.queues));
  app.use(storablePath());
  const parseJson = jsonBodyParser(http.bodyLimitBytes);
  // The MCP transport reads its own body: a malformed one is its JSON-RPC error (-32700), not ours.
  // The card webhook's and the catalog conversions' signatures cover their raw bytes, so their
  // bodies must reach the route unparsed.
  app.use(async function parseJsonExceptOwnReaders(ctx, next) {
    return ctx.path === MCP_PATH || ctx.path === CARD_WEBHOOK_PATH || ctx.path === CONVERSIONS_PATH ? next() : parseJson(ctx, next);
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
