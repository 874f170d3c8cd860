import { createRouter } from '../http/create-router';
import { PassThrough } from 'node:stream';
import Router from '@koa/router';
import { callerIdentity } from '../../shared/http/client-address';
import type { FeedEvent } from '../../shared/payments/feed';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateQuery } from '../http/validate';
import type { FeedHub } from './feed-hub';
import { createFeedLimiter } from './feed-limiter';
import { feedQuerySchema, type FeedQuery } from './feed.schema';
import { recentSettlements } from './recent-settlements';

// A comment line keeps proxies from closing an idle stream.
const HEARTBEAT_MS = 15_000;

function frame(event: FeedEvent): string {
  return `id: ${event.ledger_id}\nevent: settlement\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * The live-feed route.
 * @param deps - app dependencies (the process's feed hub)
 * @returns the router
 */
export function feedRoutes(deps: AppDeps & { feed: FeedHub }): Router<AppState> {
  const router = createRouter();
  const limiter = createFeedLimiter(deps.config.feed);
  router.get('/api/feed', validateQuery(feedQuerySchema), async (ctx: AppContext) => {
    const { recent } = ctx.state.query as FeedQuery;
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
