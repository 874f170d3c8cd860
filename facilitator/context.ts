import type { ParameterizedContext } from 'koa';
import type { RequestState } from '../shared/http/request-state';

/** Per-request state of the facilitator app. */
export type FacilitatorState = RequestState;

/** The Koa context of the facilitator app. */
export type FacilitatorContext = ParameterizedContext<FacilitatorState>;
