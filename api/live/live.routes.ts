import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context';
import { LIVE_PAGE, LIVE_PAGE_CSP } from './live-page';

/** Where a program that asks `/` for JSON is sent. */
export const SERVICE_INDEX = Object.freeze({
  service: 'humanlike',
  live_page: '/live',
  openapi: '/api/openapi.json',
  feed: '/api/feed',
  leaderboard: '/api/leaderboard',
  stats: '/api/stats',
});

/**
 * The live dashboard at `/` and `/live`: settled sessions arriving from the feed, with the
 * leaderboard and statistics beside them. A client that ranks JSON above HTML at `/` gets a small
 * index of the service's addresses instead.
 * @returns the router
 */
export function liveRoutes(): Router<AppState> {
  const router = createRouter();
  const page = async (ctx: AppContext) => {
    ctx.vary('Accept');
    if (ctx.path === '/' && ctx.accepts('html', 'json') === 'json') {
      ctx.body = SERVICE_INDEX;
      return;
    }
    ctx.type = 'text/html; charset=utf-8';
    ctx.set({
      'Content-Security-Policy': LIVE_PAGE_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      // Static: the data comes from the feed and the JSON endpoints, not from the document.
      'Cache-Control': 'public, max-age=300',
    });
    ctx.body = LIVE_PAGE;
  };
  router.get('/', page);
  router.get('/live', page);
  return router;
}
