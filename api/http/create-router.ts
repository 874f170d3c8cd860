import Router from '@koa/router';
import type { AppState } from './context';

/**
 * A router for one family's routes. Matching is exact, as the contract writes its paths: case
 * sensitive (`/METRICS` is not `/metrics`) and strict about a trailing slash. A looser router
 * would serve spellings that the operator guard, the body parser's MCP exception and the
 * dashboard's write block compare literally, and any such disagreement opens a path. Every router
 * of the API is made here (lint refuses `new Router` elsewhere).
 * @returns the router
 */
export function createRouter(): Router<AppState> {
  return new Router<AppState>({ sensitive: true, strict: true });
}
