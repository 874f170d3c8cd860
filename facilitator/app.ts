import Koa from 'koa';
import type { Logger } from '../shared/logger';
import type { FacilitatorState } from './context';
import type { EdrChainProvider } from './edr-provider';
import { maskedLogger } from './masked-logger';
import { errorHandler } from './middleware/error-handler';
import { requestLogger } from '../shared/http/request-logger';
import { rpcRoutes } from './routes/rpc.routes';
import { x402Routes } from './routes/x402.routes';
import type { FacilitatorService } from './x402-service';

/** A verify or settle body is a few kilobytes; a JSON-RPC batch for tests rarely more than 100 KiB. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/** What {@link createFacilitatorApp} needs. */
export interface FacilitatorAppDeps {
  logger: Logger;
  service: FacilitatorService;
  /** The embedded development chain; when given, `POST /rpc` passes JSON-RPC through to it. */
  rpc?: EdrChainProvider;
  bodyLimitBytes?: number;
}

/**
 * Builds the facilitator's Koa app (x402 facilitator HTTP API). It never listens:
 * `facilitator/index.ts` does, and tests may call `createFacilitatorApp(deps).callback()`.
 * Order: request id + logger, error handler, routes (each parses its own JSON body). Payers and
 * transactions are masked on every log line ({@link maskedLogger}).
 * @param deps - logger, service, optional development chain
 * @returns the app
 */
export function createFacilitatorApp(deps: FacilitatorAppDeps): Koa<FacilitatorState> {
  const app = new Koa<FacilitatorState>();
  const limit = deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const logger = maskedLogger(deps.logger);
  app.on('error', (err: unknown) => logger.error({ err }, 'koa error'));
  app.use(requestLogger(logger));
  app.use(errorHandler());
  const routers = [x402Routes(deps.service, limit), ...(deps.rpc ? [rpcRoutes(deps.rpc, limit)] : [])];
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
