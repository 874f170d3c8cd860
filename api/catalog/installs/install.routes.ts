import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import { checkChallenge, checkSnippet, installSnippet } from '../../../shared/catalog/install-site';
import {
  createInstall,
  getInstall,
  markChallengeVerified,
  markVerified,
  recordInstallation,
  type InstallRow,
} from '../../../shared/catalog/install-store';
import { COMPONENT_PATH } from '../../../shared/embed/component-path';
import { AppError, NotFoundError, ValidationError } from '../../../shared/errors';
import type { OutboundGuard } from '../../../shared/http/outbound-guard';
import { jsonDocument, sendCacheable } from '../../http/cacheable';
import type { AppContext, AppState } from '../../http/context';
import { createRouter } from '../../http/create-router';
import type { AppDeps } from '../../http/deps';
import { requestOrigin } from '../../http/public-origin';
import { validateBody, validateQuery } from '../../http/validate';
import { installProof, proofBadgeSvg, proofPage } from './install-proof';
import { CHALLENGE_TTL_SECONDS, emptyBodySchema, installationSchema, proofQuerySchema, startInstallSchema, type StartInstallRequest } from './install.schema';
import { challengeExpired, nextAction, presentChallenge, presentWorkflow, workflowPaths } from './present-install';
import { fetchingSite } from './site-fetch';
import { createSiteFetchLimit } from './site-fetch-limit';
import { pageUrlOf, siteOriginOf } from './site-address';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A path's workflow id, checked before any read.
 * @param ctx - Koa context
 * @returns the id, lowercase
 * @throws ValidationError naming path:workflow_id
 */
export function workflowIdParam(ctx: AppContext): string {
  const id = String(ctx.params.workflow_id ?? '');
  if (!UUID.test(id)) throw new ValidationError([{ path: 'path:workflow_id', rule: 'format', message: 'must be a uuid' }]);
  return id.toLowerCase();
}

function workflowNotFound(): AppError {
  return new NotFoundError('No free install workflow has this id.');
}

function wrongState(install: InstallRow, expected: string): AppError {
  return new AppError(409, 'workflow_state_conflict', `This workflow is ${install.state}; this step needs ${expected}. GET next-action says what to do now.`, {
    details: { state: install.state, next_action: workflowPaths(install.id).next_action },
  });
}

/**
 * The free install workflow: the caller installs the offering on its own site, the service only
 * reads the site (the challenge at a well-known path, then the live page) through the outbound
 * guard, and publishes the proof. The service never hosts or edits the site.
 * @param deps - app dependencies
 * @param outbound - the one outbound guard every fetch of a caller's site goes through
 * @returns the router
 */
export function installRoutes(deps: AppDeps, outbound: OutboundGuard): Router<AppState> {
  const router = createRouter();
  const { dataSource } = deps;
  const siteFetches = createSiteFetchLimit({ redis: deps.redis, prefix: deps.config.redis.queuePrefix });

  async function loadInstall(ctx: AppContext): Promise<InstallRow> {
    const install = await getInstall(dataSource, workflowIdParam(ctx));
    if (!install) throw workflowNotFound();
    return install;
  }

  router.post('/api/catalog/free-installs/start', validateBody(startInstallSchema), async function startInstall(ctx: AppContext) {
    const body = ctx.state.body as StartInstallRequest;
    const siteOrigin = siteOriginOf(body.site_origin, deps.config.outbound);
    const install = await createInstall(dataSource, {
      offeringId: body.offering_id,
      siteOrigin,
      challenge: `humanlike-install-${randomBytes(24).toString('base64url')}`,
      ttlSeconds: CHALLENGE_TTL_SECONDS,
    });
    ctx.status = 201;
    ctx.set('Location', workflowPaths(install.id).next_action);
    ctx.body = { ...presentWorkflow(install), next_action: nextAction(install) };
  });

  router.get('/api/catalog/free-installs/:workflow_id/next-action', async function readNextAction(ctx: AppContext) {
    ctx.body = nextAction(await loadInstall(ctx));
  });

  router.post('/api/catalog/free-installs/:workflow_id/challenge-published', validateBody(emptyBodySchema), async function confirmChallenge(ctx: AppContext) {
    const install = await loadInstall(ctx);
    if (install.state !== 'awaiting_challenge') throw wrongState(install, 'awaiting_challenge');
    if (challengeExpired(install)) {
      throw new AppError(410, 'challenge_expired', 'The challenge expired before it was found on the site; start a new workflow.', {
        details: { expired_at: install.challengeExpiresAt.toISOString() },
      });
    }
    await siteFetches.take(install);
    const found = await fetchingSite('challenge', () => checkChallenge(outbound, install));
    if (!found.ok) {
      throw new AppError(422, found.reason === 'challenge_mismatch' ? 'challenge_mismatch' : 'challenge_not_found', challengeMessage(found.reason, found.status), {
        details: { reason: found.reason, status: found.status, challenge: presentChallenge(install) },
      });
    }
    const moved = (await markChallengeVerified(dataSource, install.id)) ?? (await getInstall(dataSource, install.id));
    ctx.body = { ...presentWorkflow(moved as InstallRow), next_action: nextAction(moved as InstallRow) };
  });

  router.post('/api/catalog/free-installs/:workflow_id/installation', validateBody(installationSchema), async function recordInstall(ctx: AppContext) {
    const install = await loadInstall(ctx);
    const pageUrl = pageUrlOf((ctx.state.body as { page_url: string }).page_url, install.siteOrigin);
    if (install.state !== 'challenge_verified') throw wrongState(install, 'challenge_verified');
    const recorded = await recordInstallation(dataSource, install.id, pageUrl);
    if (!recorded) throw wrongState((await getInstall(dataSource, install.id)) as InstallRow, 'challenge_verified');
    ctx.status = 201;
    ctx.set('Location', workflowPaths(install.id).code);
    ctx.body = { ...presentWorkflow(recorded), next_action: nextAction(recorded) };
  });

  router.get('/api/catalog/free-installs/:workflow_id/code', async function readCode(ctx: AppContext) {
    const install = await loadInstall(ctx);
    if (install.state === 'awaiting_challenge' || install.state === 'challenge_verified') throw wrongState(install, 'install_recorded');
    const componentUrl = `${requestOrigin(deps.config.payments, ctx)}${COMPONENT_PATH}`;
    ctx.body = {
      workflow_id: install.id,
      offering_id: install.offeringId,
      page_url: install.pageUrl,
      language: 'html',
      snippet: installSnippet(componentUrl, install.id),
      component_url: componentUrl,
      note:
        'Paste the snippet into the page. It holds no secret: <humanlike-check> calls only your own host route (endpoint), which forwards to POST /api/embed/check with your bundle token on your server. Keep the script tag as given: its data-humanlike-install attribute is what the live verification looks for.',
      next: { method: 'POST', path: workflowPaths(install.id).live_verification },
    };
  });

  router.post('/api/catalog/free-installs/:workflow_id/live-verification', validateBody(emptyBodySchema), async function verifyLive(ctx: AppContext) {
    const install = await loadInstall(ctx);
    if (install.state === 'verified') {
      ctx.body = { ...presentWorkflow(install), next_action: nextAction(install) };
      return;
    }
    if (install.state !== 'install_recorded') throw wrongState(install, 'install_recorded');
    await siteFetches.take(install);
    const found = await fetchingSite('page', () => checkSnippet(outbound, install.pageUrl as string, install.id));
    if (!found.ok) {
      throw new AppError(422, 'snippet_not_found', `The snippet of this install is not on ${install.pageUrl} (answer status ${found.status}); paste the snippet from code and publish the page.`, {
        details: { reason: found.reason, status: found.status, code: workflowPaths(install.id).code },
      });
    }
    const verified = (await markVerified(dataSource, install.id)) ?? ((await getInstall(dataSource, install.id)) as InstallRow);
    ctx.body = { ...presentWorkflow(verified), next_action: nextAction(verified) };
  });

  router.get('/api/catalog/verified-installs/:workflow_id', validateQuery(proofQuerySchema), async function readProof(ctx: AppContext) {
    const install = await getInstall(dataSource, workflowIdParam(ctx));
    const proof = install && installProof(install);
    // An install never verified is not public: the same 404 as an unknown id.
    if (!proof) throw new AppError(404, 'install_not_verified', 'No verified install has this id.');
    const format = (ctx.state.query as { format: 'json' | 'svg' | 'html' }).format;
    // No freshness lifetime, with a tag: a badge is revalidated on every view (304 while unchanged),
    // so a revoked install never goes on showing as verified from a cache.
    const links = { badge: `${workflowPaths(install.id).proof}?format=svg`, page: `${workflowPaths(install.id).proof}?format=html` };
    if (format === 'svg') sendCacheable(ctx, { body: proofBadgeSvg(proof), type: 'image/svg+xml', maxAgeSeconds: 0 });
    else if (format === 'html') sendCacheable(ctx, { body: proofPage(proof, links.badge), type: 'text/html; charset=utf-8', maxAgeSeconds: 0 });
    else sendCacheable(ctx, jsonDocument({ ...proof, ...links }, 0));
  });

  return router;
}

function challengeMessage(reason: string, status: number): string {
  return reason === 'challenge_mismatch'
    ? 'The challenge file was found but does not hold exactly this workflow\'s challenge.'
    : `The challenge file was not found on the site (answer status ${status}).`;
}
