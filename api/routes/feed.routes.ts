import { PassThrough } from 'node:stream';
import Router from '@koa/router';
import { callerIdentity } from '../../shared/http/client-address';
import type { FeedEvent } from '../../shared/payments/feed';
import type { AppContext, AppState } from '../context';
import type { AppDeps } from '../deps';
import { createFeedLimiter } from '../feed/feed-limiter';
import { recentSettlements } from '../feed/recent-settlements';
import { validateQuery } from '../middleware/validate';
import type { OperationSpec } from '../openapi/operation';
import { errorBodySchema } from '../schemas/responses.schema';

// A comment line keeps proxies from closing an idle stream.
const HEARTBEAT_MS = 15_000;

const feedQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    recent: { type: 'integer', minimum: 0, maximum: 100, default: 20, description: 'How many past settlements to send first (oldest first).' },
  },
} as const;

/** OpenAPI spec of the live feed. */
export const feedOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/feed',
    operationId: 'getFeed',
    summary: 'Live feed of settled paid sessions, as server-sent events.',
    description:
      'text/event-stream. Each settlement is one event `settlement` whose data is JSON {type, ledger_id, product, tier, ' +
      'profile, score, passed, result_id, network, amount, asset, payer, transaction, settled_at}; payer and transaction ' +
      'show only their first 6 and last 4 characters, and no submitted text is ever sent. The stream starts with the ' +
      '`recent` latest settlements, then follows live; a comment line is sent every 15 s. Every web process relays every ' +
      'settlement (Redis pub/sub). A client may keep a few streams open at once (FEED_MAX_PER_CALLER, 5 by default, ' +
      'per address or IPv6 /64); beyond that, or when the server is full, the answer is 429 feed_connection_limit ' +
      'with Retry-After.',
    tags: ['public'],
    query: feedQuerySchema,
    responses: {
      '200': { description: 'The event stream (text/event-stream).' },
      '429': {
        description: 'feed_connection_limit: too many open streams from this client (details.scope "caller") or in all ("total"); see Retry-After.',
        schema: errorBodySchema,
      },
    },
  },
];

function frame(event: FeedEvent): string {
  return `id: ${event.ledger_id}\nevent: settlement\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * The live-feed route.
 * @param deps - app dependencies (the process's feed hub)
 * @returns the router
 */
export function feedRoutes(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  const limiter = createFeedLimiter(deps.config.feed);
  router.get('/api/feed', validateQuery(feedQuerySchema), async (ctx: AppContext) => {
    const { recent } = ctx.state.query as { recent: number };
    const release = limiter.acquire(callerIdentity(ctx.ip));
    const stream = new PassThrough();
    // Subscribe before reading the backlog, so nothing settled in between is lost (at worst sent twice).
    const pending: FeedEvent[] = [];
    let live = false;
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      clearInterval(heartbeat);
      unsubscribe();
      release();
      stream.end();
    };
    const unsubscribe = deps.feed.subscribe({
      event(event) {
        if (live) stream.write(frame(event));
        else pending.push(event);
      },
      end: stop,
    });
    const heartbeat = setInterval(() => stream.write(': ping\n\n'), HEARTBEAT_MS);
    // The response closes when the client goes away (or the stream ends); either frees the slot.
    ctx.req.on('close', stop);
    ctx.res.on('close', stop);
    ctx.req.socket.setTimeout(0);
    ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' });
    ctx.status = 200;
    ctx.body = stream;
    stream.write('retry: 5000\n\n');
    let backlog: FeedEvent[];
    try {
      backlog = recent > 0 ? await recentSettlements(deps.dataSource, recent) : [];
    } catch (err) {
      // The error handler answers instead of the stream (503 when the database is down).
      stop();
      throw err;
    }
    const seen = new Set(backlog.map((e) => e.ledger_id));
    for (const event of backlog) stream.write(frame(event));
    for (const event of pending) if (!seen.has(event.ledger_id)) stream.write(frame(event));
    live = true;
  });
  return router;
}
