import type { ParameterizedContext } from 'koa';
import type { RequestState } from '../../shared/http/request-state';
import type { OperatorRole } from '../../shared/operators/credentials';

/** Per-request state every middleware and route may read: the request id and logger, and what validation set. */
export interface AppState extends RequestState {
  /** The validated body, set by `validateBody`. */
  body?: unknown;
  /** The validated, coerced query, set by `validateQuery`. */
  query?: unknown;
  /** The operator or admin credential of the request, set by `operatorGuard` on operator and admin paths. */
  credential?: { id: string; role: OperatorRole };
  /** Canary traffic (a valid operator or admin credential; see `api/http/canary.ts`), set by `canaryMarker`. */
  canary?: boolean;
}

/** The Koa context of this API. */
export type AppContext = ParameterizedContext<AppState>;
