import Router from '@koa/router';
import { AppError } from '../../shared/errors';
import type { ScoreResult } from '../../shared/scoring/result-types';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import type { CorpusScoreWriter } from './corpus-scores';
import { callerHashFor } from '../http/caller-key';
import { runFreeScore } from './free-score';
import { validateBody } from '../http/validate';
import { scoreRequestSchema, type ScoreRequest } from './free-score.schema';

/**
 * The public shape of a free score: the engine's profile-free measures, plus the verdict and the
 * advice when a target profile was given.
 * @param score - the engine's result
 * @returns the `score` member of the response
 */
export function presentFreeScore(score: ScoreResult) {
  const verdict = score.result;
  return {
    scorer_version: score.scorer_version,
    human_likeness: score.human_likeness,
    measures: score.measures,
    profile: verdict?.profile ?? null,
    eq_score: verdict?.eq_score ?? null,
    passed: verdict?.passed ?? null,
    dimensions: verdict?.dimensions ?? null,
    targets: verdict?.targets ?? null,
    signals: verdict?.signals ?? score.signals,
    suggested_prompt_addition: verdict?.advice.suggested_prompt_addition ?? null,
    improvement: verdict?.advice.improvement ?? null,
    suggested_delay_seconds: verdict?.advice.suggested_delay_seconds ?? null,
  };
}

/**
 * Scoring routes: the free tier and the retired train endpoint.
 * @param deps - app dependencies
 * @returns the router
 */
export function scoreRoutes(deps: AppDeps & { corpusScores: CorpusScoreWriter }): Router<AppState> {
  const router = new Router<AppState>();
  const { freeTier } = deps.config;

  router.post(
    '/api/score',
    validateBody(scoreRequestSchema, {
      refine: (fields) =>
        fields.some((f) => f.path === '/data_consent')
          ? { code: 'data_consent_required', message: 'Free scoring needs data_consent: true (the boolean); see details.fields.' }
          : undefined,
    }),
    async (ctx: AppContext) => {
      const request = ctx.state.body as ScoreRequest;
      const callerHash = callerHashFor(ctx.ip, freeTier.callerHashKey);
      const outcome = await runFreeScore(deps, callerHash, request, ctx.state.reqId, ctx.state.log);
      deps.metrics.freeRoundUsed();
      ctx.body = {
        score: presentFreeScore(outcome.result.score),
        free_tier: {
          limit: freeTier.scoreLimit,
          used: outcome.used,
          remaining: Math.max(0, freeTier.scoreLimit - outcome.used),
          wishlist_required_before_score: freeTier.wishlistRequiredFrom,
          corpus: 'This consented reply was added to the free corpus (the incoming message is never stored).',
        },
      };
    },
  );

  router.post('/api/train', async () => {
    throw new AppError(410, 'gone', 'POST /api/train is retired; use POST /api/simulate.', {
      details: { replacement: { method: 'POST', path: '/api/simulate' } },
    });
  });

  return router;
}
