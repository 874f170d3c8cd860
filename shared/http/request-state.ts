import type { ParameterizedContext } from 'koa';
import type { Logger } from '../logger';

/** What every Koa app of the project keeps per request (the API, the facilitator). */
export interface RequestState {
  /** The request id (from X-Request-Id when well-formed, otherwise generated). */
  reqId: string;
  /** Child logger carrying `reqId`. */
  log: Logger;
}

/** A Koa context whose state holds at least {@link RequestState}. */
export type RequestContext = ParameterizedContext<RequestState>;
