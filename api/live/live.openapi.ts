import type { OperationSpec } from '../http/openapi/operation';

const DESCRIPTION =
  'A small HTML dashboard (no build step; its CSS and script are inline and allowed by hash in a strict Content-Security-Policy: ' +
  "default-src 'none', connect-src 'self'). In the browser it follows GET /api/feed (server-sent events) and shows each settled " +
  'session as it arrives, newest first, with the leaderboard (GET /api/leaderboard) and statistics (GET /api/stats) beside it, ' +
  'refreshed when a session arrives and every 30 s. It shows only what those public endpoints show (wallets truncated).';

/** OpenAPI specs of the live page. */
export const liveOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/',
    operationId: 'getHome',
    summary: 'The live dashboard (text/html); a client that ranks application/json first gets an index of addresses.',
    description: DESCRIPTION,
    tags: ['public'],
    responses: {
      '200': {
        description: 'The dashboard page, or (Accept: application/json) {service, live_page, openapi, feed, leaderboard, stats}.',
        mediaType: 'text/html',
        schema: { type: 'string' },
      },
    },
  },
  {
    method: 'get',
    path: '/live',
    operationId: 'getLivePage',
    summary: 'The live dashboard (text/html).',
    description: DESCRIPTION,
    tags: ['public'],
    responses: { '200': { description: 'The dashboard page.', mediaType: 'text/html', schema: { type: 'string' } } },
  },
];
