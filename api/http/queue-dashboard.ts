import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { KoaAdapter } from '@bull-board/koa';
import type { Queue } from 'bullmq';
import type { Middleware, Next } from 'koa';
import { AppError } from '../../shared/errors';
import type { AppContext } from './context';
import { canonicalPath, isPathUnder } from './path-prefix';

/** Where the queue dashboard is served; `operatorGuard` requires an admin credential there. */
export const QUEUE_DASHBOARD_PATH = '/admin/queues';

// Members that hold what a caller submitted (the reply, the incoming message), whatever their value.
const TEXT_KEYS = new Set(['text', 'incoming', 'incoming_message', 'proposed_text', 'reply', 'evidence', 'excerpt', 'quote']);
// Ids, codes, profile ids, versions, hashes: kept. Anything else that is a string may be prose.
const IDENTIFIER = /^[A-Za-z0-9_.:/@+-]{0,80}$/;

/**
 * A copy of a job's data or return value fit for the dashboard: every string that may be
 * submitted text is replaced by its length. Members known to hold text are always replaced;
 * any other string is kept only when it looks like an identifier (no spaces, at most 80 characters).
 * @param value - job data or return value
 * @param key - the member name it sits under
 * @returns the redacted copy
 */
export function redactJobValue(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return TEXT_KEYS.has(key) || !IDENTIFIER.test(value) ? `[redacted: ${value.length} characters]` : value;
  if (Array.isArray(value)) return value.map((v) => redactJobValue(v, key));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactJobValue(v, k)]));
  return value;
}

/**
 * The BullMQ dashboard (bull-board) over every queue, under {@link QUEUE_DASHBOARD_PATH}. Admins
 * see counts, jobs, failures and can retry them; job data and return values are shown redacted
 * ({@link redactJobValue}), so no submitted text reaches the page. The admin credential is checked
 * in front of it by `operatorGuard`.
 * @param queues - every queue of the system
 * @returns the middleware to mount (it only answers under its path)
 */
export function queueDashboard(queues: readonly Queue[]): Middleware {
  const serverAdapter = new KoaAdapter();
  serverAdapter.setBasePath(QUEUE_DASHBOARD_PATH);
  const adapters = queues.map((queue) => {
    const adapter = new BullMQAdapter(queue, { readOnlyMode: false, allowRetries: true });
    adapter.setFormatter('data', (data: unknown) => redactJobValue(data));
    adapter.setFormatter('returnValue', (value: unknown) => redactJobValue(value));
    return adapter;
  });
  createBullBoard({ queues: adapters, serverAdapter, options: { uiConfig: { boardTitle: 'humanlike queues' } } });
  const board = serverAdapter.registerPlugin() as unknown as Middleware;
  return async function serveQueueDashboard(ctx: AppContext, next: Next): Promise<void> {
    // Every request passes here; only the dashboard's own paths go through its mounted app.
    if (!isPathUnder(ctx.path, QUEUE_DASHBOARD_PATH)) return next();
    if (isJobWrite(ctx.method, ctx.path)) {
      throw new AppError(403, 'dashboard_action_disabled', 'Job data is shown redacted, so jobs cannot be added or edited here.');
    }
    await board(ctx as never, next);
  };
}

// Adding, duplicating (an add) and editing a job would send back the redacted data the page
// shows, replacing the text a job needs with its redaction. Retry, promote and clean are kept.
// The dashboard's own router matches without regard to letter case, so the block is decided on
// the path's canonical form: `/ADD` and `/%61dd` are an add too.
const JOB_WRITE = new RegExp(`^${QUEUE_DASHBOARD_PATH}/api/queues/[^/]+/(add|[^/]+/update-data)$`);
const isJobWrite = (method: string, path: string) => method !== 'GET' && method !== 'HEAD' && JOB_WRITE.test(canonicalPath(path));
