import Router from '@koa/router';
import { createRouter } from '../http/create-router';
import type { AppContext, AppState } from '../http/context';
import { SCORER_VERSION } from '../../shared/scoring/version';
import { EVAL_FIGURES } from '../../shared/validation/figures';
import type { EvalReport } from '../../shared/validation/eval-report';
import { publicValidation } from './validation-view';
import { renderValidationPage } from './validation-page';

/** How long clients may keep the page: it changes only with a deploy. */
export const VALIDATION_CACHE_SECONDS = 300;

/**
 * The published validation: a page and its JSON twin, both built once from the eval's output.
 * @param report - the eval's output (the committed eval-figures.json unless a test passes another)
 * @returns the router
 */
export function validationRoutes(report: EvalReport = EVAL_FIGURES): Router<AppState> {
  const router = createRouter();
  const view = publicValidation(report, SCORER_VERSION);
  const page = renderValidationPage(view);
  router.get('/api/validation', async (ctx: AppContext) => {
    ctx.set('Cache-Control', `public, max-age=${VALIDATION_CACHE_SECONDS}`);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page;
  });
  router.get('/api/validation.json', async (ctx: AppContext) => {
    ctx.set('Cache-Control', `public, max-age=${VALIDATION_CACHE_SECONDS}`);
    ctx.body = view;
  });
  return router;
}
