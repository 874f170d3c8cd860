import type Router from '@koa/router';
import type { Next } from 'koa';
import { AppError } from '../../shared/errors';
import { createRouter } from '../http/create-router';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody } from '../http/validate';
import { agreementTable, MIN_ALPHA, MIN_RATERS_PER_ITEM, publicAgreementTable } from './calibration-report';
import { EXCLUDING_FAILURES } from './attention-checks';
import { WORDING_REVIEW_CONSENT } from './consent-texts';
import { presentedTokenHash, programTokenRefused, WORDING_TOKEN } from '../http/program-token';
import { presentScales } from './rating-scales';
import {
  refineWordingConsent,
  wordingConsentRequestSchema,
  wordingRatingRequestSchema,
  type WordingConsentRequest,
  type WordingRatingRequest,
} from './wording-review.schema';
import {
  calibrationRatings,
  createWordingSession,
  deleteWordingSession,
  findWordingSession,
  nextItems,
  recordRating,
  type WordingSession,
} from './wording-review.store';

/** How the agreement figures are computed, as both reports state it. */
export const AGREEMENT_METHOD =
  "Per scale: Krippendorff's alpha (ordinal) over every item rated by two or more raters; Spearman's rho between the engine's " +
  `value and the raters' mean over items with at least ${MIN_RATERS_PER_ITEM} raters, with a 95% Fisher z interval. A scale ` +
  `counts as evidence only where alpha is at least ${MIN_ALPHA}. Only ratings of consented text by raters who passed the ` +
  'attention checks enter (a rater failing two is left out).';

// The session the token of a request found, kept beside the context rather than on the shared state type.
const sessions = new WeakMap<AppContext, WordingSession>();

function sessionOf(ctx: AppContext): WordingSession {
  return sessions.get(ctx)!;
}

function presentSession(session: WordingSession) {
  return {
    created_at: session.createdAt.toISOString(),
    consent_version: session.consentVersion,
    rated: session.rated,
    counts_for_calibration: session.attentionFailures < EXCLUDING_FAILURES,
  };
}

/**
 * The wording review and the calibration report: raters consent and rate consented replies on
 * four scales; an admin reads the agreement with the engine, and the public reads the same table
 * without identities and with small counts withheld.
 * @param deps - app dependencies
 * @returns the router
 */
export function aeiProgramRoutes(deps: AppDeps): Router<AppState> {
  const router = createRouter();
  const ds = deps.dataSource;

  // Every refusal is the same 401 for a missing, malformed, unknown or deleted token.
  const requireWordingSession = async function requireWordingSession(ctx: AppContext, next: Next): Promise<void> {
    const hash = presentedTokenHash(WORDING_TOKEN, ctx.get(WORDING_TOKEN.header));
    const session = await findWordingSession(ds, hash);
    if (!session) throw programTokenRefused(WORDING_TOKEN, true);
    sessions.set(ctx, session);
    ctx.set('Cache-Control', 'no-store');
    await next();
  };

  router.get('/api/aei/wording-review/consent', async (ctx: AppContext) => {
    ctx.body = { ...WORDING_REVIEW_CONSENT, scales: presentScales() };
  });

  router.post('/api/aei/wording-review/sessions', validateBody(wordingConsentRequestSchema, { refine: refineWordingConsent }), async (ctx: AppContext) => {
    const consent = ctx.state.body as WordingConsentRequest;
    const { session, token } = await createWordingSession(ds, consent.consent_version);
    ctx.status = 201;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { token, session: presentSession(session), scales: presentScales(), next_items: await nextItems(ds, session.id) };
  });

  router.get('/api/aei/wording-review/session', requireWordingSession, async (ctx: AppContext) => {
    const session = sessionOf(ctx);
    ctx.body = { session: presentSession(session), scales: presentScales(), next_items: await nextItems(ds, session.id) };
  });

  router.delete('/api/aei/wording-review/session', requireWordingSession, async (ctx: AppContext) => {
    const deleted = await deleteWordingSession(ds, sessionOf(ctx).id);
    // Deleted by a concurrent request between the lookup and here: the token is already gone.
    if (!deleted) throw programTokenRefused(WORDING_TOKEN, true);
    ctx.body = { deleted: { session: 1, ratings: deleted.ratings, token: true } };
  });

  // The body is checked before the token, as on every other path: a malformed request is 422 whoever sends it.
  router.post('/api/aei/wording-review/ratings', validateBody(wordingRatingRequestSchema), requireWordingSession, async (ctx: AppContext) => {
    const body = ctx.state.body as WordingRatingRequest;
    const session = sessionOf(ctx);
    const itemId = body.item_id.toLowerCase();
    const outcome = await recordRating(ds, session.id, itemId, body.ratings);
    if (outcome.kind === 'unknown_item') throw new AppError(422, 'item_unknown', 'No item has this id; rate items from next_items.');
    if (outcome.kind === 'already_rated') throw new AppError(409, 'already_rated', 'This session already rated this item; each item is rated once.');
    ctx.status = 201;
    ctx.body = { item_id: itemId, recorded: true, next_items: await nextItems(ds, session.id) };
  });

  router.get('/api/admin/aei/wording-review', async (ctx: AppContext) => {
    const [set, [counts]] = await Promise.all([
      calibrationRatings(ds),
      ds.query(
        `SELECT count(*)::int AS sessions, count(*) FILTER (WHERE attention_failures >= $1)::int AS excluded FROM wording_review_sessions`,
        [EXCLUDING_FAILURES],
      ) as Promise<Array<{ sessions: number; excluded: number }>>,
    ]);
    const table = agreementTable(set);
    ctx.body = {
      generated_at: new Date().toISOString(),
      method: AGREEMENT_METHOD,
      sessions: counts.sessions,
      excluded_sessions: counts.excluded,
      raters: table.raters,
      items_rated: table.items_rated,
      min_alpha: MIN_ALPHA,
      min_raters_per_item: MIN_RATERS_PER_ITEM,
      dimensions: table.dimensions,
    };
  });

  router.get('/api/validation/human-agreement', async (ctx: AppContext) => {
    ctx.body = { generated_at: new Date().toISOString(), method: AGREEMENT_METHOD, ...publicAgreementTable(agreementTable(await calibrationRatings(ds))) };
  });

  return router;
}
