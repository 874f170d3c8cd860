import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import { findCoachingCertificate, isCoachingCertificateId, type CoachingCertificateRecord } from '../../shared/coaching/certificate';
import { AppError } from '../../shared/errors';
import { recordPublicView, type PublicPage } from '../../shared/operators/public-result-views';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateQuery } from '../http/validate';
import { renderCertificateImage } from './certificate-image';
import { renderCertificatePng } from './certificate-png';
import { buildCertificate, renderCertificatePage } from './certificate-page';
import { buildCoachingCertificate, renderCoachingCertificateImage, renderCoachingCertificatePage } from './coaching-certificate';
import { LEADERBOARD_CACHE_SECONDS } from './leaderboard';
import { leaderboardQuerySchema, type LeaderboardQuery } from './records.schema';
import { loadScoreboard } from './scoreboard';
import { renderResultPage } from './result-page';
import { renderScoreboardPage } from './scoreboard-page';
import type { PublicSession } from './public-row';
import { findCertifiedSession, findPublicResult, normalizeTxHash } from './session-lookup';
import { loadStats } from './stats';
import { TtlCache } from './ttl-cache';
import { leaderboardReader, type LeaderboardReader } from './records.tools';
import { requestOrigin } from '../http/public-origin';

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

/** How long a rendered certificate PNG is kept in memory and may be cached by clients. */
export const CERTIFICATE_PNG_CACHE_SECONDS = 3600;

// A found certificate: a scored session's or a coaching pack's, under the key its address stands for.
type Certificate = { key: string; session: PublicSession; coaching?: undefined } | { key: string; session?: undefined; coaching: CoachingCertificateRecord };

function notFound(code: string, message: string): AppError {
  return new AppError(404, code, message);
}

/**
 * The public records: leaderboard, results, certificates, scoreboard and statistics. Free,
 * read-only, from the ledger; no full wallet, payer identity, other session's transaction hash or
 * submitted text ever leaves here.
 * @param deps - app dependencies
 * @param leaderboard - the cached leaderboard (shared with the leaderboard tool)
 * @returns the router
 */
export function recordsRoutes(deps: AppDeps, leaderboard: LeaderboardReader = leaderboardReader(deps)): Router<AppState> {
  const router = createRouter();
  // A settled certificate never changes: its PNG (tens of kB, ~0.1 s to draw) is drawn once per
  // process and kept for the hour crawlers fetch it in after a share; bounded to 64 images.
  const certificatePngs = new TtlCache<Buffer>(CERTIFICATE_PNG_CACHE_SECONDS * 1000, 64);
  // A view is counted once it was served; a failed count is logged, never the reader's problem.
  const countView = (ctx: AppContext, page: PublicPage) =>
    recordPublicView(deps.dataSource, page).catch((err: unknown) => ctx.state.log.warn({ err, page }, 'public view not counted'));
  const origin = (ctx: AppContext) => requestOrigin(deps.config.payments, ctx);

  router.get('/api/leaderboard', validateQuery(leaderboardQuerySchema), async (ctx: AppContext) => {
    const query = ctx.state.query as LeaderboardQuery;
    const options = { limit: query.limit, profile: query.profile ?? null };
    ctx.body = await leaderboard(options);
    ctx.set('Cache-Control', `public, max-age=${LEADERBOARD_CACHE_SECONDS}`);
  });

  router.get('/api/results/:result_id', async (ctx: AppContext) => {
    const result = await findPublicResult(deps.dataSource, String(ctx.params.result_id));
    if (!result) throw notFound('result_not_found', 'No settled session has this result id.');
    if (wantsHtml(ctx)) {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = renderResultPage(result);
    } else {
      ctx.body = result;
    }
    await countView(ctx, 'result');
  });

  // A certificate address holds a transaction hash (a scored session's certificate, EVM hashes
  // lowercased as the ledger stores them) or a coaching certificate's `coaching-<uuid>` id, which
  // never looks like a hash (see shared/coaching/certificate.ts). One lookup serves page and images.
  async function certificateAt(ctx: AppContext, coachingMissing: string): Promise<Certificate> {
    const id = String(ctx.params.tx_hash);
    if (isCoachingCertificateId(id)) {
      const record = await findCoachingCertificate(deps.dataSource, id);
      if (!record) throw notFound('certificate_not_found', coachingMissing);
      return { key: id, coaching: record };
    }
    const txHash = normalizeTxHash(id);
    const session = txHash === undefined ? undefined : await findCertifiedSession(deps.dataSource, txHash);
    if (txHash === undefined || !session) throw notFound('certificate_not_found', 'No passed, settled session was paid by this transaction.');
    return { key: txHash, session };
  }
  const imageOf = (cert: Certificate) => (cert.session ? renderCertificateImage(cert.session) : renderCoachingCertificateImage(cert.coaching));

  router.get('/api/certificate/:tx_hash', async (ctx: AppContext) => {
    const found = await certificateAt(ctx, 'No coaching certificate has this id (the pack is not complete yet, or the id is unknown).');
    const base = origin(ctx);
    const url = `${base}/api/certificate/${found.key}`;
    const html = wantsHtml(ctx);
    if (found.session) {
      const cert = buildCertificate(found.session, { url, imageUrl: `${url}/image.png`, svgImageUrl: `${url}/image.svg`, resultUrl: `${base}/api/results/${found.session.result_id}` });
      ctx.body = html ? renderCertificatePage(cert) : cert;
    } else {
      const cert = buildCoachingCertificate(found.coaching, { url, imageUrl: `${url}/image.png` });
      ctx.body = html ? renderCoachingCertificatePage(cert) : cert;
    }
    if (html) ctx.type = 'text/html; charset=utf-8';
    await countView(ctx, 'certificate');
  });

  router.get('/api/certificate/:tx_hash/image.svg', async (ctx: AppContext) => {
    const found = await certificateAt(ctx, 'No coaching certificate has this id.');
    ctx.type = 'image/svg+xml; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = imageOf(found);
  });

  router.get('/api/certificate/:tx_hash/image.png', async (ctx: AppContext) => {
    const found = await certificateAt(ctx, 'No coaching certificate has this id.');
    ctx.type = 'image/png';
    ctx.set('Cache-Control', `public, max-age=${CERTIFICATE_PNG_CACHE_SECONDS}`);
    ctx.body = await certificatePngs.get(found.key, () => renderCertificatePng(imageOf(found)));
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
