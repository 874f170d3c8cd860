import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import { AppError } from '../../shared/errors';
import { agentCallOf } from '../http/agent-tool';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import type { CorpusScoreWriter } from './corpus-scores';
import { validateBody } from '../http/validate';
import { scoreRequestSchema, type ScoreRequest } from './free-score.schema';
import { freeScoreAnswer, refineFreeScore } from './free-score.tool';

/**
 * Scoring routes: the free tier and the retired train endpoint.
 * @param deps - app dependencies
 * @returns the router
 */
export function scoreRoutes(deps: AppDeps & { corpusScores: CorpusScoreWriter }): Router<AppState> {
  const router = createRouter();

  router.post(
    '/api/score',
    validateBody(scoreRequestSchema, { refine: refineFreeScore }),
    async (ctx: AppContext) => {
      ctx.body = await freeScoreAnswer(deps, ctx.state.body as ScoreRequest, agentCallOf(ctx, deps));
    },
  );

  router.post('/api/train', async () => {
    throw new AppError(410, 'gone', 'POST /api/train is retired; use POST /api/simulate.', {
      details: { replacement: { method: 'POST', path: '/api/simulate' } },
    });
  });

  return router;
}
