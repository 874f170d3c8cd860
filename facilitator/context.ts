import type { ParameterizedContext } from 'koa';
import type { Logger } from '../shared/logger';

/** Per-request state of the facilitator app. */
export interface FacilitatorState {
  /** The request id (from X-Request-Id when well-formed, otherwise generated). */
  reqId: string;
  /** Child logger carrying `reqId`. */
  log: Logger;
}

/** The Koa context of the facilitator app. */
export type FacilitatorContext = ParameterizedContext<FacilitatorState>;
