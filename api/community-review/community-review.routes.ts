import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import { AppError, ValidationError } from '../../shared/errors';
import { callerHashFor } from '../http/caller-key';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody, validateQuery } from '../http/validate';
import {
  consentRequestSchema,
  DEFAULT_SAMPLE_COUNT,
  refineConsent,
  responsesRequestSchema,
  sessionListQuerySchema,
  type ConsentRequest,
  type ResponsesRequest,
  type SessionListQuery,
} from './community-review.schema';
import { presentReviewSession } from './present-review-session';
import { createReviewRateLimit } from './review-rate-limit';
import { secretMatches } from './review-secret';
import { createReviewSession, findReviewSession, listReviewSessions, recordResponses } from './review-sessions';
import { loadReviewSummary } from './review-summary';

function sessionNotFound(): AppError {
  return new AppError(404, 'review_session_not_found', 'No community-review session has this id.');
}

/**
 * The problems of a responses body that the schema cannot see: a sample twice in one request, or
 * a sample the session did not draw.
 * @param body - the validated body
 * @param sampleIds - the session's samples
 * @returns the failing fields (empty when fine)
 */
function responseProblems(body: ResponsesRequest, sampleIds: readonly string[]): Array<{ path: string; rule: string; message: string }> {
  const seen = new Set<string>();
  const problems: Array<{ path: string; rule: string; message: string }> = [];
  body.responses.forEach((r, i) => {
    if (seen.has(r.sample_id)) problems.push({ path: `/responses/${i}/sample_id`, rule: 'unique', message: 'this sample is rated twice in one request' });
    else if (!sampleIds.includes(r.sample_id)) problems.push({ path: `/responses/${i}/sample_id`, rule: 'in_session', message: 'this sample is not in the session' });
    seen.add(r.sample_id);
  });
  return problems;
}

/**
 * Community review: people consent, rate the service's own sample replies, and the summary sets
 * their ratings against the engine's. Free and public; writes are limited per caller; no comment a
 * reviewer writes is ever returned.
 * @param deps - app dependencies
 * @returns the router
 */
export function communityReviewRoutes(deps: AppDeps): Router<AppState> {
  const router = createRouter();
  const limit = createReviewRateLimit({
    redis: deps.redis,
    prefix: deps.config.redis.queuePrefix,
    limits: { sessions: deps.config.communityReview.sessionsPerHour, responses: deps.config.communityReview.responsesPerHour },
  });
  const caller = (ctx: AppContext) => callerHashFor(ctx.ip, deps.config.freeTier.callerHashKey);

  router.get('/api/community-review/sessions', validateQuery(sessionListQuerySchema), async (ctx: AppContext) => {
    const { limit: count } = ctx.state.query as SessionListQuery;
    ctx.body = { generated_at: new Date().toISOString(), limit: count, sessions: await listReviewSessions(deps.dataSource, count) };
  });

  router.post('/api/community-review/sessions', validateBody(consentRequestSchema, { refine: refineConsent }), async (ctx: AppContext) => {
    const consent = ctx.state.body as ConsentRequest;
    await limit.take('sessions', caller(ctx), ctx.state.log);
    const { session, secret } = await createReviewSession(deps.dataSource, consent.sample_count ?? DEFAULT_SAMPLE_COUNT);
    ctx.status = 201;
    ctx.set('Location', `/api/community-review/sessions/${session.id}`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ...presentReviewSession(session), session_secret: secret };
  });

  router.get('/api/community-review/sessions/:session_id', async (ctx: AppContext) => {
    const session = await findReviewSession(deps.dataSource, String(ctx.params.session_id));
    if (!session) throw sessionNotFound();
    ctx.body = presentReviewSession(session);
  });

  router.post('/api/community-review/sessions/:session_id/responses', validateBody(responsesRequestSchema), async (ctx: AppContext) => {
    const body = ctx.state.body as ResponsesRequest;
    await limit.take('responses', caller(ctx), ctx.state.log);
    const session = await findReviewSession(deps.dataSource, String(ctx.params.session_id));
    if (!session) throw sessionNotFound();
    if (!secretMatches(body.session_secret, session.secretHash)) {
      throw new AppError(403, 'review_secret_invalid', "This is not the session's secret.");
    }
    const problems = responseProblems(body, session.sampleIds);
    if (problems.length > 0) throw new ValidationError(problems, 'Rate each sample of the session at most once per request; see details.fields.', 'invalid_sample');
    const accepted = await recordResponses(deps.dataSource, session.id, body.responses);
    const updated = await findReviewSession(deps.dataSource, session.id);
    ctx.body = { accepted, session: presentReviewSession(updated!) };
  });

  router.get('/api/community-review/summary', async (ctx: AppContext) => {
    ctx.body = await loadReviewSummary(deps.dataSource);
  });

  return router;
}
