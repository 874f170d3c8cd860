import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import { isDatabaseUnavailable } from '../../shared/db/db-errors';
import { UnavailableError } from '../../shared/errors';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { readCorpusEvidence } from './corpus-evidence';

/**
 * The public corpus evidence route.
 * @param deps - app dependencies
 * @returns the router
 */
export function corpusRoutes(deps: AppDeps): Router<AppState> {
  const router = createRouter();
  router.get('/api/corpus/evidence', async (ctx: AppContext) => {
    ctx.body = await readCorpusEvidence(deps.dataSource).catch((err: unknown) => {
      if (isDatabaseUnavailable(err)) throw new UnavailableError('database_unavailable', 'The database is unreachable; retry later.', { cause: err });
      throw err;
    });
  });
  return router;
}
