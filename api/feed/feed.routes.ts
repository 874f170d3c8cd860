import { PassThrough } from 'node:stream';
import Router from '@koa/router';
import type { FeedEvent } from '../../shared/payments/feed';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import type { FeedHub } from './feed-hub';
import { feedQuerySchema } from './feed.schema';
import { recentSettlements } from './recent-settlements';
import { validateQuery } from '../http/validate';

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
  const router = new Router<AppState>();
  router.get('/api/feed', validateQuery(feedQuerySchema), async (ctx: AppContext) => {
    const { recent } = ctx.state.query as { recent: number };
    const stream = new PassThrough();
    // Subscribe before reading the backlog, so nothing settled in between is lost (at worst sent twice).
    const pending: FeedEvent[] = [];
    let live = false;
    const stop = () => {
      clearInterval(heartbeat);
      unsubscribe();
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
    ctx.req.on('close', stop);
    ctx.req.socket.setTimeout(0);
    ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' });
    ctx.status = 200;
    ctx.body = stream;
    stream.write('retry: 5000\n\n');
    const backlog = recent > 0 ? await recentSettlements(deps.dataSource, recent) : [];
    const seen = new Set(backlog.map((e) => e.ledger_id));
    for (const event of backlog) stream.write(frame(event));
    for (const event of pending) if (!seen.has(event.ledger_id)) stream.write(frame(event));
    live = true;
  });
  return router;
}
