import type { ParameterizedContext } from 'koa';
import type { Logger } from '../shared/logger';

/** Per-request state every middleware and route may read. */
export interface AppState {
  /** The request id (from X-Request-Id when well-formed, otherwise generated). */
  reqId: string;
  /** Child logger carrying `reqId`. */
  log: Logger;
  /** The validated body, set by `validateBody`. */
  body?: unknown;
  /** The validated, coerced query, set by `validateQuery`. */
  query?: unknown;
}

/** The Koa context of this API. */
export type AppContext = ParameterizedContext<AppState>;
