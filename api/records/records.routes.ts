import Router from '@koa/router';
import { findCoachingCertificate, isCoachingCertificateId } from '../../shared/coaching/certificate';
import { AppError } from '../../shared/errors';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateQuery } from '../http/validate';
import { renderCertificateImage } from './certificate-image';
import { buildCertificate, renderCertificatePage } from './certificate-page';
import { buildCoachingCertificate, renderCoachingCertificateImage, renderCoachingCertificatePage } from './coaching-certificate';
import { LEADERBOARD_CACHE_SECONDS, loadLeaderboard, type Leaderboard } from './leaderboard';
import { leaderboardQuerySchema, type LeaderboardQuery } from './records.schema';
import { loadScoreboard } from './scoreboard';
import { renderScoreboardPage } from './scoreboard-page';
import { findCertifiedSession, findPublicResult, normalizeTxHash } from './session-lookup';
import { loadStats } from './stats';
import { TtlCache } from './ttl-cache';

/**
 * Whether the caller asked for HTML rather than JSON: JSON is the default (no Accept, `*\/*`,
 * `application/json`); a browser's Accept ranks text/html first.
 * @param ctx - Koa context
 * @returns true for HTML
 */
function wantsHtml(ctx: AppContext): boolean {
  ctx.vary('Accept');
  return ctx.accepts('json', 'html') === 'html';
}

function notFound(code: string, message: string): AppError {
  return new AppError(404, code, message);
}

/**
 * The public records: leaderboard, results, certificates, scoreboard and statistics. Free,
 * read-only, from the ledger; no full wallet, payer identity, other session's transaction hash or
 * submitted text ever leaves here.
 * @param deps - app dependencies
 * @returns the router
 */
export function recordsRoutes(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  // Per process: a new best shows within the TTL on every web process, with no invalidation message.
  const leaderboards = new TtlCache<Leaderboard>(LEADERBOARD_CACHE_SECONDS * 1000);
  const origin = (ctx: AppContext) => deps.config.payments.publicBaseUrl ?? `${ctx.protocol}://${ctx.host}`;

  router.get('/api/leaderboard', validateQuery(leaderboardQuerySchema), async (ctx: AppContext) => {
    const query = ctx.state.query as LeaderboardQuery;
    const options = { limit: query.limit, profile: query.profile ?? null };
    ctx.body = await leaderboards.get(`${options.limit}|${options.profile ?? ''}`, () => loadLeaderboard(deps.dataSource, options));
    ctx.set('Cache-Control', `public, max-age=${LEADERBOARD_CACHE_SECONDS}`);
  });

  router.get('/api/results/:result_id', async (ctx: AppContext) => {
    const result = await findPublicResult(deps.dataSource, String(ctx.params.result_id));
    if (!result) throw notFound('result_not_found', 'No settled session has this result id.');
    ctx.body = result;
  });

  router.get('/api/certificate/:tx_hash', async (ctx: AppContext, next) => {
    if (isCoachingCertificateId(String(ctx.params.tx_hash))) return next();
    const txHash = normalizeTxHash(String(ctx.params.tx_hash));
    const session = txHash === undefined ? undefined : await findCertifiedSession(deps.dataSource, txHash);
    if (!txHash || !session) throw notFound('certificate_not_found', 'No passed, settled session was paid by this transaction.');
    const base = origin(ctx);
    const url = `${base}/api/certificate/${txHash}`;
    const cert = buildCertificate(session, { url, imageUrl: `${url}/image.svg`, resultUrl: `${base}/api/results/${session.result_id}` });
    if (wantsHtml(ctx)) {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = renderCertificatePage(cert);
    } else {
      ctx.body = cert;
    }
  });

  router.get('/api/certificate/:tx_hash/image.svg', async (ctx: AppContext, next) => {
    if (isCoachingCertificateId(String(ctx.params.tx_hash))) return next();
    const session = await findCertifiedSession(deps.dataSource, String(ctx.params.tx_hash));
    if (!session) throw notFound('certificate_not_found', 'No passed, settled session was paid by this transaction.');
    ctx.type = 'image/svg+xml; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = renderCertificateImage(session);
  });

  // Coaching certificates share the certificate address (the segment is then a `coaching-<uuid>`
  // id, which never looks like a transaction hash; see shared/coaching/certificate.ts).
  router.get('/api/certificate/:tx_hash', async (ctx: AppContext) => {
    const id = String(ctx.params.tx_hash);
    const record = await findCoachingCertificate(deps.dataSource, id);
    if (!record) throw notFound('certificate_not_found', 'No coaching certificate has this id (the pack is not complete yet, or the id is unknown).');
    const url = `${origin(ctx)}/api/certificate/${id}`;
    const cert = buildCoachingCertificate(record, { url, imageUrl: `${url}/image.svg` });
    if (wantsHtml(ctx)) {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = renderCoachingCertificatePage(cert);
    } else {
      ctx.body = cert;
    }
  });

  router.get('/api/certificate/:tx_hash/image.svg', async (ctx: AppContext) => {
    const record = await findCoachingCertificate(deps.dataSource, String(ctx.params.tx_hash));
    if (!record) throw notFound('certificate_not_found', 'No coaching certificate has this id.');
    ctx.type = 'image/svg+xml; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = renderCoachingCertificateImage(record);
  });

  router.get('/api/scoreboard', async (ctx: AppContext) => {
    const board = await loadScoreboard(deps.dataSource);
    if (wantsHtml(ctx)) {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = renderScoreboardPage(board);
    } else {
      ctx.body = board;
    }
  });

  router.get('/api/stats', async (ctx: AppContext) => {
    ctx.body = await loadStats(deps.dataSource, deps.scoringQueue);
  });

  return router;
}
